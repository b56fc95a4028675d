#!/bin/sh
# Stands in for dmenu in dunst's context menu. dunst writes one line per action on stdin:
#   "#<Label> (<summary>) [<id>,<action-key>]"
# A test asks for a choice by writing text (e.g. "[3,snooze:10m]") to the file $1. The first menu
# offering a line with that text picks it and takes the file away, so the choice is made once: a
# menu opened again while the test waits, or later, picks nothing. A menu without a pending choice,
# or not offering it yet (the choice is left for the next menu), picks nothing either.
# Every menu shown is appended to $2, followed by "=> " and the line picked ("=> " alone for none).
choice_file=$1; log=$2
in=$(cat)
taken="$choice_file.$$"
picked=""
# mv is atomic: of two menus open at once, only one takes the choice.
if mv "$choice_file" "$taken" 2>/dev/null; then
    pat=$(cat "$taken")
    [ -n "$pat" ] && picked=$(printf '%s\n' "$in" | grep -m1 -F -- "$pat")
    # Not offered yet: put back, unless the test has written a newer choice or withdrawn this one
    # (ln fails on an existing file; the test removes the held copy, "$1.*", before "$1").
    if [ -n "$pat" ] && [ -z "$picked" ]; then ln "$taken" "$choice_file" 2>/dev/null; fi
    rm -f "$taken"
fi
[ -n "$log" ] && printf '%s\n=> %s\n---\n' "$in" "$picked" >> "$log"
[ -n "$picked" ] && printf '%s\n' "$picked"
exit 0
