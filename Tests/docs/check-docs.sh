#!/bin/bash
# `make check-docs` (part of `make test`): the documentation points only at things that exist.
# Run from anywhere; it works on the repository the script is in. Checks:
#   1. Links. Every relative Markdown link, inline `[text](target)` or reference `[label]: target`, in
#      README.md, docs/*.md, Config/README.md and every README.md under Tests/ resolves to an existing
#      file or folder; a `#anchor` (also a bare one, within the same file) names a heading of the target,
#      slugged as GitHub does (lower case; every character that is not a letter, digit, space, '-' or
#      '_' dropped; each space becomes '-'; a repeated heading gets -1, -2, …). Fenced code blocks and
#      `inline code` are not links. http(s):, mailto: and other URLs are not fetched.
#   2. Cited repository paths. A backticked path in those Markdown files that starts with a top-level
#      folder or file of the repository (`Examples/commute.gpx`, `Sources/LibicalShim`, `Makefile`) exists.
#      Spans with a wildcard or placeholder (`*`, `<…>`, `…`, `$`, `{`) are patterns, not paths.
#   3. No machine paths and no tracker references in any file git knows (tracked, or new and not ignored):
#      an absolute /work/…, /root/… or /home/USER/… path (/home/me/… is the placeholder the docs use for
#      "your home folder" and is allowed), and "issue 12" / "Issue #12" style references, which mean
#      nothing to a reader of the repository. Tests/ChimeICSTests/Corpus/ is exempt from the latter: it
#      holds other projects' test files verbatim, whose names and contents cite their own trackers.
#   4. Cited documents. Every docs/NAME.md (with its #anchor, if any) named in any file exists; a
#      `README "Section"` or `DESIGN.md "Section"` citation names an existing file with that heading.
#   5. Configuration defaults. Each `key = value` line (also a commented-out `# key = value`) in a fenced
#      toml block of docs/configuration.md appears, in the same [section], in Config/config.toml. A key of
#      Config/config.toml that the list leaves out gets a "note:" line, which does not fail. A default
#      quoted in prose in README.md or docs/*.md (`grace_hours` (24), `hysteresis_m` 50,
#      `[sync] interval_minutes`, default 5) is the one in Config/config.toml.
# One line per problem, `file:line: what`, on stdout; exit status 1 if there was any.
#
# KNOWN below lists hits in Swift sources that the documentation work could not edit: they are printed
# as "known" without failing, and a known entry that no longer matches is reported as stale (fix the
# source, then delete its line here).
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8

# path<TAB>text: a hit in `path` whose line contains `text` is known (see above).
KNOWN=$(cat <<'EOF'
EOF
)

# Problems are printed as they are found (also from pipelines' subshells) and counted at the end.
problem() { # file line message
    local file=$1 line=$2 msg=$3
    while IFS=$'\t' read -r kpath ktext; do
        [ -n "$kpath" ] || continue
        if [ "$file" = "$kpath" ] && sed -n "${line}p" "$file" | grep -qF -- "$ktext"; then
            echo "known (not failing; fix in the source): $file:$line: $msg"
            return
        fi
    done <<<"$KNOWN"
    echo "$file:$line: $msg"
}

# Markdown files whose links are checked.
md_files() {
    for f in README.md docs/*.md Config/README.md; do [ -f "$f" ] && echo "$f"; done
    find Tests -name README.md -type f | LC_ALL=C sort
}
# Files git knows about, tracked or new (not ignored); binary files are skipped by grep -I later.
# Outside a git checkout (a source tarball): every file but the build folders.
known_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard
    else
        find . -type f ! -path './.git/*' ! -path './.build*' | sed 's|^\./||'
    fi | LC_ALL=C sort -u
}

# Lines of a Markdown file outside fenced code blocks, as "LINE<TAB>text", inline code removed.
prose_lines() {
    awk '/^[ \t]*(```|~~~)/ { fence = !fence; next } !fence { printf "%d\t%s\n", NR, $0 }' "$1" |
        sed 's/``[^`]*``//g; s/`[^`]*`//g'
}
# GitHub anchors of a Markdown file's headings, one a line (duplicates numbered -1, -2, …).
anchors() {
    awk '/^[ \t]*(```|~~~)/ { fence = !fence; next } !fence && /^#+[ \t]/' "$1" |
        sed -E 's/^#{1,6}[ \t]+//; s/[ \t]+#+[ \t]*$//; s/[ \t]+$//' |
        sed -E 's/\[([^]]*)\]\([^)]*\)/\1/g' |
        sed 's/.*/\L&/; s/[^[:alnum:] _-]//g; s/ /-/g' |
        awk '{ n = seen[$0]++; print (n ? $0 "-" n : $0) }'
}
has_anchor() { # file anchor
    anchors "$1" | grep -qxF -- "$2"
}
# Heading texts of a Markdown file, lower case, for `README "Section"` citations.
heading_texts() {
    awk '/^[ \t]*(```|~~~)/ { fence = !fence; next } !fence && /^#+[ \t]/' "$1" |
        sed -E 's/^#{1,6}[ \t]+//; s/[ \t]+$//' | sed 's/.*/\L&/'
}

checks() {
# 1. Links.
check_link() { # file line target
    local file=$1 line=$2 target=$3 path anchor dest
    case $target in
        ''|*://*|mailto:*|tel:*|data:*) return ;;
    esac
    target=${target#<}; target=${target%>}
    path=${target%%#*}
    anchor=""
    case $target in *'#'*) anchor=${target#*#} ;; esac
    if [ -z "$path" ]; then
        dest=$file
    else
        case $path in
            /*) dest=${path#/} ;;
            *) dest=$(dirname "$file")/$path ;;
        esac
        dest=$(realpath -m --relative-to=. "$dest")
        if [ ! -e "$dest" ]; then
            problem "$file" "$line" "link to '$target': $dest does not exist"
            return
        fi
    fi
    if [ -n "$anchor" ]; then
        case $dest in
            *.md)
                has_anchor "$dest" "$anchor" || problem "$file" "$line" "link to '$target': no heading '#$anchor' in $dest" ;;
            *) ;;
        esac
    fi
}

# "LINE<TAB>target" for every inline link or image `](target)` / `](target "title")` and every reference
# definition `[label]: target` of a file's prose (one awk per file).
link_targets() {
    prose_lines "$1" | awk -F'\t' '{
        n = $1; text = substr($0, length(n) + 2); s = text
        while (match(s, /\]\([^)[:space:]]+/)) { print n "\t" substr(s, RSTART + 2, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
        if (match(text, /^ ? ? ?\[[^]]+\]:[[:space:]]+[^[:space:]]+/)) {
            d = substr(text, RSTART, RLENGTH); sub(/^[^]]*\]:[[:space:]]+/, "", d); print n "\t" d
        }
    }'
}
while read -r md; do
    while IFS=$'\t' read -r n t; do check_link "$md" "$n" "$t"; done < <(link_targets "$md")
done < <(md_files)

# 2. Backticked repository paths in the Markdown files.
top_level=$(known_files | sed -n 's|^\([^/]*\)/.*|\1/|p; s|^\([^/]*\)$|\1|p' | LC_ALL=C sort -u |
    grep -vxE 'README\.md|LICENSE.*|\.gitignore')
# "LINE<TAB>span" for every `code span` of a file's prose.
code_spans() {
    awk '/^[ \t]*(```|~~~)/ { fence = !fence; next } !fence {
        s = $0
        while (match(s, /`[^`]+`/)) { print NR "\t" substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
    }' "$1"
}
while read -r md; do
    while IFS=$'\t' read -r n span; do
        case $span in *' '*|*'*'*|*'<'*|*'…'*|*'$'*|*'{'*|*'='*) continue ;; esac
        p=${span%%#*}; p=${p%%:[0-9]*}; p=${p%§*}
        match=""
        for top in $top_level; do
            case $top in
                */) case $p in "$top"*) match=1; break ;; esac ;;
                *) [ "$p" = "$top" ] && { match=1; break; } ;;
            esac
        done
        [ -n "$match" ] || continue
        [ -e "$p" ] || problem "$md" "$n" "cites \`$span\`: $p does not exist"
    done < <(code_spans "$md")
done < <(md_files)

# 3. Machine paths and tracker references.
self=Tests/docs/check-docs.sh
machine='(^|[^[:alnum:]_.$}/-])/(work|root|home/[[:alnum:]_.-]+)/[[:alnum:]_.~-]'
tracker='[Ii]ssue #?[0-9]+'
known_files | grep -vxF "$self" | tr '\n' '\0' |
    xargs -0 grep -nIHE -- "$machine" 2>/dev/null |
    while IFS=: read -r f n rest; do
        # the placeholder home folder is allowed; report the first other machine path on the line
        hit=$(sed -E 's#(^|[^[:alnum:]_.$}/-])/home/me/#\1~/#g' <<<"$rest" | grep -oE -- "$machine" | head -1 | sed -E 's/^[^/]//')
        [ -n "$hit" ] && problem "$f" "$n" "machine path '${hit}…': write a path relative to the repository, \$HOME or a placeholder"
    done
known_files | grep -vxF "$self" | grep -v '^Tests/ChimeICSTests/Corpus/' | tr '\n' '\0' |
    xargs -0 grep -nIHoE -- "$tracker" 2>/dev/null |
    while IFS=: read -r f n hit; do
        problem "$f" "$n" "tracker reference '$hit': say what it is about instead (the tracker is not in the repository)"
    done

# 4. Cited documents: docs/NAME.md[#anchor], README "Section", DESIGN.md "Section".
known_files | grep -vxF "$self" | tr '\n' '\0' |
    xargs -0 grep -nIHoE -- '(\.\./)*docs/[[:alnum:]_.-]+\.md(#[[:alnum:]_-]+)?' 2>/dev/null |
    while IFS=: read -r f n cite; do
        doc=${cite%%#*}; doc=docs/${doc##*docs/}
        if [ ! -f "$doc" ]; then
            problem "$f" "$n" "cites $cite: $doc does not exist"
        else
            case $cite in *'#'*) has_anchor "$doc" "${cite#*#}" || problem "$f" "$n" "cites $cite: no heading '#${cite#*#}' in $doc" ;; esac
        fi
    done
known_files | grep -vxF "$self" | tr '\n' '\0' |
    xargs -0 grep -nIHoE -- '(README(\.md)?|DESIGN\.md)( "[[:alpha:]][^"$]*")?' 2>/dev/null |
    grep -E ':(README(\.md)? "|DESIGN\.md)' |
    while IFS=: read -r f n cite; do
        doc=${cite%% *}; section=""
        case $cite in *' "'*) section=${cite#*\"}; section=${section%\"} ;; esac
        [ "$doc" = README ] && doc=README.md
        if [ ! -f "$doc" ]; then
            problem "$f" "$n" "cites $cite: $doc is not in the repository"
        elif [ -n "$section" ] && ! heading_texts "$doc" | grep -qxiF -- "$section"; then
            problem "$f" "$n" "cites $cite: $doc has no heading \"$section\""
        fi
    done

# 5. Configuration defaults quoted in docs/configuration.md.
# section.key = value lines of a TOML text, comments after values dropped: "LINE<TAB>section.key = value".
toml_settings() {
    awk '
        /^[ \t]*\[[^]]+\][ \t]*(#.*)?$/ { s = $0; sub(/^[ \t]*\[/, "", s); sub(/\].*/, "", s); section = s; next }
        {
            line = $0; sub(/^[ \t]*#[ \t]*/, "", line)
            if (line !~ /^[a-z_]+[ \t]*=/) next
            key = line; sub(/[ \t]*=.*/, "", key)
            value = line; sub(/^[^=]*=[ \t]*/, "", value); sub(/[ \t]+#.*$/, "", value); sub(/[ \t]+$/, "", value)
            printf "%d\t%s.%s = %s\n", NR, section, key, value
        }' "$1"
}
if [ -f docs/configuration.md ]; then
    source_settings=$(toml_settings Config/config.toml | cut -f2)
    awk '/^[ \t]*```toml/ { inside = 1; next } /^[ \t]*```/ { inside = 0 } { print (inside ? $0 : "") }' docs/configuration.md >"$tmp/quoted.toml"
    toml_settings "$tmp/quoted.toml" | while IFS=$'\t' read -r n setting; do
        grep -qxF -- "$setting" <<<"$source_settings" ||
            problem docs/configuration.md "$n" "'$setting' is not what Config/config.toml says (the source of the defaults)"
    done
    # Defaults quoted in prose: `key` (24), `key` 50, `[section] key`, default 3.
    for md in README.md docs/*.md; do
        grep -noE '`(\[[a-z_]+\] )?[a-z_]+`(,? default | \((default )?| )[0-9][0-9.]*' "$md" | while IFS=: read -r n hit; do
            key=$(sed -E 's/^`(\[[a-z_]+\] )?([a-z_]+)`.*/\2/' <<<"$hit")
            value=$(sed -E 's/.*[ (]([0-9][0-9.]*)$/\1/' <<<"$hit")
            default=$(toml_settings Config/config.toml | cut -f2 | sed -n "s/^[a-z_]*\.$key = //p" | head -1)
            [ -n "$default" ] || continue
            [ "$value" = "$default" ] ||
                problem "$md" "$n" "quotes $key as $value; Config/config.toml says $key = $default"
        done
    done
    # Keys the list leaves out are not an error (Config/config.toml is the source), but worth a line.
    quoted_keys=$(toml_settings "$tmp/quoted.toml" | cut -f2 | sed 's/ = .*//')
    toml_settings Config/config.toml | cut -f2 | sed 's/ = .*//' | while read -r key; do
        grep -qxF -- "$key" <<<"$quoted_keys" ||
            echo "note: $key (Config/config.toml) is not in the list in docs/configuration.md"
    done
fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$(checks)
[ -z "$out" ] || printf '%s\n' "$out"
while IFS=$'\t' read -r kpath ktext; do
    [ -n "$kpath" ] || continue
    grep -qF -- "$ktext" "$kpath" 2>/dev/null ||
        echo "note: the known entry '$kpath: $ktext' no longer matches: delete it from KNOWN in $0"
done <<<"$KNOWN"
failed=$(printf '%s\n' "$out" | grep -c -v -e '^known ' -e '^note: ' -e '^$')
if [ "$failed" -gt 0 ]; then
    echo "check-docs: $failed problem(s)"
    exit 1
fi
echo "check-docs: ok ($(md_files | wc -l) Markdown files, $(known_files | wc -l) files scanned)"
