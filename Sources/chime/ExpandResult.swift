import ChimeCore

/// What `chime expand` prints, as a table or as JSON.
struct ExpandResult {
    let request: ExpandRequest
    let window: OccurrenceWindow

    private var isAllDay: Bool { request.set.start.isAllDay }

    func table() -> String {
        let set = request.set
        let start = isAllDay ? set.start.local.date.description : set.start.local.description
        var out = "DTSTART  \(start) (\(request.zoneLabel))\n"
        for rule in set.rules { out += "RRULE    \(rule.rfc5545)\n" }
        out += "\n"
        let width = String(window.occurrences.count).count
        for (i, o) in window.occurrences.enumerated() {
            let number = String(repeating: " ", count: width - String(i + 1).count) + String(i + 1)
            let weekday = DisplayText.weekdayNames[o.date.weekday.isoIndex]
            if isAllDay {
                out += "\(number)  \(weekday) \(o.date)\n"
            } else {
                let local = request.zone.localTime(at: o.instant)
                out += "\(number)  \(weekday) \(local.date) \(time(local))\(Self.offset(request.zone.offset(at: o.instant)))  \(o.instant)\n"
            }
        }
        out += "\n" + summary() + "\n"
        return out
    }

    private func time(_ l: LocalDateTime) -> String {
        String(l.description.dropFirst(11))
    }

    static func offset(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(Int(seconds))
        let hh = String(a / 3600), mm = String(a / 60 % 60)
        return sign + (hh.count < 2 ? "0" + hh : hh) + ":" + (mm.count < 2 ? "0" + mm : mm)
    }

    func summary() -> String {
        let n = window.occurrences.count
        let noun = n == 1 ? "occurrence" : "occurrences"
        if window.isTruncated { return "\(n) \(noun) shown; more follow (raise --count or give --to)." }
        if let end = window.end { return "\(n) \(noun); the set ends: \(end)." }
        return "\(n) \(noun) in the window."
    }

    func json() -> String {
        let set = request.set
        var fields: [(String, String)] = [
            ("dtstart", JSONText.string(isAllDay ? set.start.local.date.description : set.start.local.description)),
            ("zone", JSONText.string(request.zoneLabel)),
            ("rrules", JSONText.array(set.rules.map { JSONText.string($0.rfc5545) }))
        ]
        let items = window.occurrences.map { o -> String in
            if isAllDay { return JSONText.object([("date", JSONText.string(o.date.description))]) }
            let local = request.zone.localTime(at: o.instant)
            return JSONText.object([
                ("local", JSONText.string(local.description + Self.offset(request.zone.offset(at: o.instant)))),
                ("utc", JSONText.string(o.instant.description))
            ])
        }
        fields.append(("occurrences", JSONText.array(items)))
        fields.append(("truncated", window.isTruncated ? "true" : "false"))
        fields.append(("end", window.end.map { JSONText.string(Self.endCode($0)) } ?? "null"))
        return JSONText.document(fields) + "\n"
    }

    static func endCode(_ end: ExpansionEnd) -> String {
        switch end {
        case .count: return "count"
        case .until: return "until"
        case .searchHorizon: return "search-horizon"
        case .endOfCalendar: return "end-of-calendar"
        }
    }
}
