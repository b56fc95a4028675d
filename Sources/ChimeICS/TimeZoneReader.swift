import ChimeCore

/// VTIMEZONE component → `VTimeZone` definition (its STANDARD and DAYLIGHT observances).
enum TimeZoneReader {
    /// - Parameter repairs: where a repaired fault is said (an observance onset written as a
    ///   DATE is read as midnight of that day); without it such a fault throws.
    static func definition(_ c: ICSComponent, file: String, repairs: RepairLog? = nil) throws(ICSError) -> VTimeZone {
        let tzid = c["TZID"]?.value.trimmingSpaces ?? ""
        var observances: [VTimeZone.Observance] = []
        for o in c.components {
            let kind: VTimeZone.Observance.Kind
            switch o.name {
            case "STANDARD": kind = .standard
            case "DAYLIGHT": kind = .daylight
            default: continue
            }
            func need(_ name: String) throws(ICSError) -> ICSProperty {
                guard let p = o[name] else { throw ICSError(file: file, line: o.line, property: o.name, "missing \(name)") }
                return p
            }
            let dtstart = try need("DTSTART")
            let start: LocalDateTime
            switch BasicDateTime.parse(dtstart.value.trimmingSpaces) {
            case .local(let l)?: start = l
            case .date(let d)? where repairs != nil:
                // RFC 5545 §3.6.5 asks for a local date-time; some producers write the day alone
                // (`DTSTART;VALUE=DATE:20170101`). Dropping the whole zone would move every time
                // written in it, so the onset is read as midnight of that day.
                start = LocalDateTime(date: d)
                try repairs!.note(
                    line: dtstart.line, property: "DTSTART",
                    "\(dtstart.value.trimmingSpaces) is a date, not a local date-time: the observance starts at midnight of that day")
            default:
                throw ICSError(file: file, line: dtstart.line, property: "DTSTART", "invalid local date-time \"\(dtstart.value)\"")
            }
            let from = try offset(try need("TZOFFSETFROM"), file: file)
            let to = try offset(try need("TZOFFSETTO"), file: file)
            var rule: RecurrenceRule?
            if let r = o["RRULE"] {
                do { rule = try RecurrenceRule(parsing: r.value.trimmingSpaces) } catch {
                    throw ICSError(file: file, line: r.line, property: "RRULE", "\(error)")
                }
            }
            var dates: [LocalDateTime] = []
            for p in o.all("RDATE") {
                for part in p.value.split(separator: ",") {
                    if case .local(let l)? = BasicDateTime.parse(part.split(separator: "/").first ?? "") { dates.append(l) }
                }
            }
            observances.append(
                VTimeZone.Observance(
                    kind: kind, start: start, offsetFrom: from, offsetTo: to, rule: rule,
                    dates: dates, name: o["TZNAME"]?.value))
        }
        return VTimeZone(identifier: tzid, observances: observances)
    }

    /// `+0100`, `-0500`, `+053000`.
    static func offset(_ p: ICSProperty, file: String) throws(ICSError) -> Int32 {
        let v = Array(p.value.trimmingSpaces.utf8)
        guard v.count == 5 || v.count == 7, v[0] == UInt8(ascii: "+") || v[0] == UInt8(ascii: "-"),
            v.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 })
        else {
            throw ICSError(file: file, line: p.line, property: p.name, "invalid UTC offset \"\(p.value)\"")
        }
        func n(_ i: Int) -> Int32 { Int32(v[i] - 48) * 10 + Int32(v[i + 1] - 48) }
        let seconds = n(1) * 3600 + n(3) * 60 + (v.count == 7 ? n(5) : 0)
        return v[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}
