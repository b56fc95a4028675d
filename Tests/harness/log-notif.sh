#!/bin/bash
# Run by dunst for every notification it receives (rule "zz-log-all"); DUNST_* describe it.
# DUNST_ICON_PATH is the file dunst found for the notification's icon name (empty: none found).
# Appends one tab-separated line to $SVC_RUN/notifications.log (SVC_RUN is inherited from dunst).
# Backslash, newline and tab in the texts are written as \\, \n and \t so that each notification
# stays on one line.
esc() { local s=${1//\\/\\\\}; s=${s//$'\n'/\\n}; s=${s//$'\t'/\\t}; printf '%s' "$s"; }
printf 'id=%s\tapp=%s\turgency=%s\tsummary=%s\tbody=%s\tcategory=%s\ttimeout=%s\tdesktop_entry=%s\ticon=%s\n' \
  "$DUNST_ID" "$(esc "$DUNST_APP_NAME")" "$DUNST_URGENCY" "$(esc "$DUNST_SUMMARY")" "$(esc "$DUNST_BODY")" \
  "$(esc "$DUNST_CATEGORY")" "$DUNST_TIMEOUT" "$(esc "$DUNST_DESKTOP_ENTRY")" \
  "$(esc "$DUNST_ICON_PATH")" >> "$SVC_RUN/notifications.log"
