import ChimeCore
import ChimeStore

/// The `chime alarms` output: one line per firing under a heading for its day (or one JSON object
/// per firing), then the armed location alarms.
public struct AlarmsWriter {
    public let zone: ZoneRules
    /// The user's language for the text form's headings (JSON stays ISO and English).
    public let messages: Messages

    public init(zone: ZoneRules, messages: Messages = .english) {
        self.zone = zone
        self.messages = messages
    }

    public func text(
        _ firings: [AlarmFiring], states: [FiringKey: LedgerEntry], armed: [AlarmSource], snoozed: [LedgerEntry] = [],
        from: Instant, to: Instant, into out: inout OutputBuffer
    ) {
        out.append(
            messages(
                "Alarms {from} – {to} ({zone}): {count}",
                [
                    "from": stamp(from), "to": stamp(to), "zone": zone.identifier,
                    "count": "\(firings.count)"
                ]) + "\n")
        // Under a heading for each day, as the agenda lists them: a line keeps to the time, so one
        // with an occurrence reference fits 80 columns.
        var day: CivilDate?
        for f in firings {
            let fire = zone.localTime(at: f.fireAt)
            if fire.date != day {
                day = fire.date
                out.append(messages.dayHeading(fire.date) + "\n")
            }
            let time = "  \(clock(fire, seconds: true))  "
            var what: String
            if let start = f.occurrenceStart, case .relative = f.alarm.trigger {
                // The start (or due time) it is for: the time, with the day when that differs.
                let at = zone.localTime(at: start)
                what = alarmText(
                    f,
                    from: f.item.isAllDay
                        ? messages.dayHeading(at.date)
                        : fire.date == at.date ? DisplayText.hhmm(at) : stamp(start))
            } else {
                what = alarmText(f, from: nil)
            }
            if let state = Self.state(f, states) {
                // A silenced one says why in words: "(not accepted: does not ring)".
                what +=
                    state == f.silencedBecause?.rawValue
                    ? "  " + messages("({reason}: does not ring)", ["reason": stateText(state)]) : "  (\(stateText(state)))"
            }
            let reference = DisplayText.singleLine(ItemReference.text(f, zone: zone, short: true))
            let title = LineFit.title(
                DisplayText.itemTitle(f.item.title), rest: time.count + 2 + DisplayText.columns(what) + 2 + reference.count)
            out.append(time + title + "  " + what + "  " + Style.reference(reference) + "\n")
        }
        if !snoozed.isEmpty {
            out.append(messages("Snoozed, shown again: {count}", ["count": "\(snoozed.count)"]) + "\n")
            for entry in snoozed.sorted(by: { ($0.snoozedUntil!, $0.title) < ($1.snoozedUntil!, $1.title) }) {
                out.append(
                    "\(stamp(entry.snoozedUntil!))  \(DisplayText.itemTitle(entry.title))  "
                        + messages("(first at {time})", ["time": stamp(entry.fireAt)]) + "  "
                        + Style.reference(ItemReference.short(entry.key.item)) + "\n")
            }
        }
        let places = armed.flatMap { source in source.item.alarms.filter { $0.structuredLocation != nil }.map { (source, $0) } }
        if !places.isEmpty {
            out.append(messages("Armed location alarms (fire on crossing the place, not at a time): {count}", ["count": "\(places.count)"]) + "\n")
            for (source, alarm) in places {
                out.append(
                    "  \(DisplayText.itemTitle(source.item.title))  \(DisplayText.alarm(alarm, messages: messages))  \(Style.reference(DisplayText.singleLine(ItemReference.short(source.item.identifier))))\n"
                )
            }
        }
    }

    /// `{"chime_json":1,"alarms":[…],"armed":[…]}`: each firing (docs/json.md's alarm firing),
    /// then each armed location alarm.
    public func json(_ firings: [AlarmFiring], states: [FiringKey: LedgerEntry], armed: [AlarmSource], to out: inout OutputBuffer) {
        let alarms = firings.map { f in
            JSONText.object(
                ItemFormat.head(
                    ref: ItemReference.text(f, zone: zone), id: f.item.identifier, uid: f.item.uid, kind: f.item.kind.rawValue,
                    title: f.item.title) + [
                        ("fire", JSONText.string(f.fireAt.description)),
                        ("occurrence", f.occurrenceStart.map { JSONText.string($0.description) } ?? "null"),
                        ("alarm", ItemFormat.json(f.alarm)),
                        ("state", JSONText.string(Self.state(f, states) ?? FiringState.scheduled.rawValue)),
                        ("key", JSONText.string(f.key.description))
                    ])
        }
        var places: [String] = []
        for source in armed {
            for alarm in source.item.alarms where alarm.structuredLocation != nil {
                places.append(
                    JSONText.object(
                        ItemFormat.head(
                            ref: source.item.identifier, id: source.item.identifier, uid: source.item.base.externalIdentifier,
                            kind: source.item.kindName, title: source.item.title)
                            + [("alarm", ItemFormat.json(alarm))]))
            }
        }
        out.append(JSONText.document([("alarms", JSONText.array(alarms)), ("armed", JSONText.array(places))]) + "\n")
    }

    /// The firing's state: this machine's ledger's, else `acknowledged` when another device or
    /// client answered it (``AlarmFiring/acknowledgedAt``), else why the item does not ring
    /// (`cancelled`, `declined`, `delegated`, `not-accepted`: ``AlarmFiring/silencedBecause``);
    /// nil when nothing happened to it yet.
    static func state(_ f: AlarmFiring, _ states: [FiringKey: LedgerEntry]) -> String? {
        if let state = states[f.key]?.state, state != .scheduled { return state.rawValue }
        if f.acknowledgedAt != nil { return "acknowledged" }
        if let silence = f.silencedBecause { return silence.rawValue }
        return states[f.key]?.state.rawValue
    }

    /// `Mon 2026-11-23 08:50`; with `seconds`, `08:50:30` when the seconds are not zero (alarms fire to the second).
    private func stamp(_ i: Instant, seconds: Bool = false) -> String {
        let local = zone.localTime(at: i)
        return "\(messages.dayHeading(local.date)) \(clock(local, seconds: seconds))"
    }

    private func clock(_ l: LocalDateTime, seconds: Bool) -> String {
        DisplayText.hhmm(l) + (seconds && l.second != 0 ? (l.second < 10 ? ":0" : ":") + "\(l.second)" : "")
    }

    /// `5 min before 09:00`, `at 18:00`, `15 min before end 17:00`: the time it counts from, named
    /// as start or due only when no time follows (an end is always named).
    private func alarmText(_ f: AlarmFiring, from time: String?) -> String {
        if f.alarm.snoozes != nil { return messages("snoozed", context: "alarm list") }
        guard case .relative(let offset, let relation) = f.alarm.trigger else { return messages("absolute alarm", context: "alarm list") }
        let anchor =
            if let time { relation == .end ? messages("end {time}", context: "alarm list", ["time": time]) : time } else {
                relation == .end
                    ? messages("end", context: "alarm list")
                    : f.item.kind == .event ? messages("start", context: "alarm list") : messages("due", context: "alarm list")
            }
        if offset == 0 { return messages("at {time}", context: "alarm list", ["time": anchor]) }
        let length = DisplayText.length(abs(offset), messages: messages)
        return offset < 0
            ? messages("{length} before {time}", context: "alarm list", ["length": length, "time": anchor])
            : messages("{length} after {time}", context: "alarm list", ["length": length, "time": anchor])
    }

    private func stateText(_ state: String) -> String { Self.stateText(state, messages: messages) }

    /// A firing's state (`snoozed`, `declined`, `not accepted` …), in the user's words: for the
    /// alarm list and `chime geofence list`.
    ///
    /// ```swift
    /// AlarmsWriter.stateText("not-accepted", messages: .english)  // "not accepted"
    /// ```
    public static func stateText(_ state: String, messages: Messages) -> String {
        switch state {
        case "acknowledged": messages("acknowledged", context: "alarm state")
        case "cancelled": messages("cancelled", context: "alarm state")
        case "declined": messages("declined", context: "alarm state")
        case "delegated": messages("delegated", context: "alarm state")
        case "not-accepted": messages("not accepted", context: "alarm state")
        case "delivered": messages("delivered", context: "alarm state")
        case "dismissed": messages("dismissed", context: "alarm state")
        case "snoozed": messages("snoozed", context: "alarm state")
        case "scheduled": messages("scheduled", context: "alarm state")
        case "missed": messages("missed", context: "alarm state")
        default: String(state.map { $0 == "-" ? " " : $0 })
        }
    }
}
