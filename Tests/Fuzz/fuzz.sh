#!/bin/sh
# Bounded libFuzzer run of every fuzz target (what `make fuzz` calls). See Tests/Fuzz/README.md.
#
#   Tests/Fuzz/fuzz.sh                  build each harness, fuzz each for FUZZ_SECONDS, report
#   Tests/Fuzz/fuzz.sh --replay         build, then run the committed corpus and crashers once (seconds)
#
# Environment:
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_TARGETS   default "RRuleFuzz ICSFuzz"
#   FUZZ_CONFIG    release (default; -O keeps preconditions and overflow checks, and ChimeCore and ChimeICS
#                  use no assert()) or debug (assert() on too; ~5-10x fewer exec/s here)
#   FUZZ_JOBS      >1 runs libFuzzer -fork=N (one process per core; ignores timeouts and OOMs)
#   FUZZ_MINIMIZE  seconds to spend minimizing each crash before it is kept (default 60; 0 = keep as found)
#   FUZZ_FLAGS     extra libFuzzer flags, e.g. "-use_value_profile=1 -seed=1"
#
# New inputs go to .build-fuzz/corpus/NAME (the scratch corpus, first directory: libFuzzer writes only
# there); the committed seeds in Tests/Fuzz/Corpus/NAME are read only. Crashes, timeouts, OOMs and leaks
# land in .build-fuzz/artifacts/NAME/; each new one is minimized and copied into Tests/Fuzz/Crashes/NAME/,
# which `make test` replays (Tests/ChimeICSTests/FuzzRegressionTests.swift).
#
# Exit status: 0 when no target found anything, 1 when any did, 2 when a build failed.
set -u
cd "$(dirname "$0")/../.." || exit 2

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TARGETS=${FUZZ_TARGETS:-"RRuleFuzz ICSFuzz"}
FUZZ_CONFIG=${FUZZ_CONFIG:-release}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_MINIMIZE=${FUZZ_MINIMIZE:-60}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
SWIFT=${SWIFT:-swift}
SCRATCH=.build-fuzz
MODE=fuzz
[ "${1:-}" = "--replay" ] && MODE=replay

# Without this the Swift runtime's crash handler takes the trap: no crash file, or a bogus ASan report.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# Inputs longer than this are not generated (RRULE text is short; .ics files need room for a few components).
max_len() { case $1 in RRuleFuzz) echo 512 ;; *) echo 4096 ;; esac; }

# One build per product: --product keeps the other @main executables out of the link; --sanitize fuzzer
# stops SwiftPM renaming main; the single comma-joined -sanitize=fuzzer,address gives both instrumentations
# (two --sanitize flags give one at random); -DFUZZING drops the harness's replay main; lld silences
# ld.gold's "Cannot export local symbol __asan_*" warnings.
build() {
    echo "== building $1 ($FUZZ_CONFIG, libFuzzer + ASan) into $SCRATCH"
    "$SWIFT" build --scratch-path "$SCRATCH" -c "$FUZZ_CONFIG" --product "$1" \
        --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld \
        >"$SCRATCH/logs/build-$1.log" 2>&1 || { tail -40 "$SCRATCH/logs/build-$1.log"; return 1; }
}

mkdir -p "$SCRATCH/logs"
for t in $FUZZ_TARGETS; do build "$t" || { echo "FUZZ BUILD FAILED: $t (log: $SCRATCH/logs/build-$t.log)"; exit 2; }; done

if [ "$MODE" = replay ]; then
    status=0
    for t in $FUZZ_TARGETS; do
        mkdir -p "$SCRATCH/artifacts/$t"
        dirs="Tests/Fuzz/Corpus/$t"
        [ -d "Tests/Fuzz/Crashes/$t" ] && dirs="$dirs Tests/Fuzz/Crashes/$t"
        # shellcheck disable=SC2086
        if "$SCRATCH/$FUZZ_CONFIG/$t" -runs=0 -timeout=10 -artifact_prefix="$SCRATCH/artifacts/$t/" $dirs \
            >"$SCRATCH/logs/replay-$t.log" 2>&1; then
            # shellcheck disable=SC2086
            echo "$t: replayed $(find $dirs -type f ! -name '.*' | wc -l | tr -d ' ') files from $dirs: ok"
        else
            echo "$t: REPLAY FAILED"; "$SWIFT" demangle --simplified <"$SCRATCH/logs/replay-$t.log" | tail -40; status=1
        fi
    done
    exit $status
fi

summary=""
found=0
for t in $FUZZ_TARGETS; do
    bin="$SCRATCH/$FUZZ_CONFIG/$t"
    artifacts="$SCRATCH/artifacts/$t"
    log="$SCRATCH/logs/fuzz-$t.log"
    rm -rf "$artifacts"
    mkdir -p "$SCRATCH/corpus/$t" "$artifacts" "Tests/Fuzz/Crashes/$t"
    dict=""
    [ -f "Tests/Fuzz/$t.dict" ] && dict="-dict=Tests/Fuzz/$t.dict"
    fork=""
    [ "$FUZZ_JOBS" -gt 1 ] 2>/dev/null && fork="-fork=$FUZZ_JOBS"
    echo "== fuzzing $t for ${FUZZ_SECONDS}s (log: $log)"
    # shellcheck disable=SC2086
    "$bin" "$SCRATCH/corpus/$t" "Tests/Fuzz/Corpus/$t" $dict $fork $FUZZ_FLAGS \
        -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
        -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
    rc=$?

    # Numbers: libFuzzer's final stats (single process), else its last status line (fork mode, or a crash).
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    [ -z "$execs" ] && execs=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
    [ -z "$rate" ] && rate=$(printf '%s\n' "$last" | sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p')
    cov=$(printf '%s\n' "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    corp=$(printf '%s\n' "$last" | sed -n 's/.*corp: \([0-9][0-9/]*[a-zA-Z]*\).*/\1/p')
    line="$t: ${execs:-?} executions, ${rate:-?} exec/s, coverage ${cov:-?}, corpus ${corp:-?} (scratch $(ls "$SCRATCH/corpus/$t" | wc -l) files)"

    new=0
    for a in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* "$artifacts"/leak-*; do
        [ -f "$a" ] || continue
        kind=$(basename "$a" | sed 's/-.*//')
        keep="$a"
        if [ "$kind" != timeout ] && [ "$kind" != oom ] && [ "$FUZZ_MINIMIZE" -gt 0 ]; then
            # Shrinks the input while it still crashes (each try is a child process of the same binary).
            if "$bin" -minimize_crash=1 -max_total_time="$FUZZ_MINIMIZE" -timeout=10 \
                -exact_artifact_path="$a.min" "$a" >"$log.minimize" 2>&1 && [ -s "$a.min" ]; then
                keep="$a.min"
            fi
        fi
        # Already kept (under any name: kept files may be renamed to say what they are)?
        same=""
        for k in "Tests/Fuzz/Crashes/$t"/*; do
            if [ -f "$k" ] && { cmp -s "$keep" "$k" || cmp -s "$a" "$k"; }; then same="$k"; break; fi
        done
        if [ -n "$same" ]; then
            echo "   $kind already kept: $same"
        else
            dest="Tests/Fuzz/Crashes/$t/$kind-$(sha1sum "$keep" | cut -c1-40)"
            cp "$keep" "$dest"
            echo "   NEW $kind ($(wc -c <"$keep" | tr -d ' ') bytes) kept as $dest"
        fi
        new=$((new + 1))
    done

    if [ $rc -ne 0 ] || [ $new -gt 0 ]; then
        found=1
        line="$line; FOUND (libFuzzer exit $rc)"
        echo "FUZZ FAILURE in $t (exit $rc). Report:"
        # The report runs from libFuzzer's/ASan's first error line to the end; demangle the Swift frames.
        sed -n '/==ERROR\|deadly signal\|Fatal error\|ALARM: working on the last Unit\|out-of-memory\|Sanitizer/,$p' "$log" \
            | grep -v '^stat::' | "$SWIFT" demangle --simplified | head -60
        echo "Reproduce: SWIFT_BACKTRACE=enable=no $bin <file>   (or: swift run --scratch-path .build-fuzzcheck $t <file>)"
    fi
    echo "$line"
    summary="$summary$line
"
done

echo "== fuzz summary (${FUZZ_SECONDS}s per target, $FUZZ_CONFIG)"
printf '%s' "$summary"
exit $found
