#!/bin/sh
# Stands in for dmenu in dunst's context menu. dunst writes one line per action on stdin:
#   "#<Label> (<summary>) [<id>,<action-key>]"
# Print the first line containing the text in the file $1 (written by the test, e.g. ",snooze]"),
# or the first line when that file is missing or empty. Every menu shown is appended to $2.
choice_file=$1; log=$2
in=$(cat)
[ -n "$log" ] && printf '%s\n---\n' "$in" >> "$log"
pat=$(cat "$choice_file" 2>/dev/null || true)
if [ -n "$pat" ]; then printf '%s\n' "$in" | grep -m1 -F -- "$pat"; else printf '%s\n' "$in" | head -n1; fi
