import ChimeCore

/// RRULE values as real files write them, brought to what RFC 5545 says before parsing: the
/// evident meaning where there is one, no recurrence (the event kept as its first occurrence)
/// where there is none. Each change is said, for the import's warnings.
///
/// ```swift
/// RRuleRepair.normalize("freq=weekly; byday=MO, TU\\;count=-1;")
/// // ("FREQ=WEEKLY;BYDAY=MO,TU", [removed spaces, removed backslash escapes, …] as MessageText)
/// ```
enum RRuleRepair {
    static func normalize(_ raw: String) -> (text: String?, changes: [MessageText]) {
        var changes: [MessageText] = []
        var text = raw
        // Byte tests, not Foundation's substring search: every RRULE of a file or a sync passes here.
        if text.prefix(6).asciiUppercased == "RRULE:" {
            text.removeFirst(6)
            changes.append(MessageText("dropped a repeated \"RRULE:\""))
        }
        if text.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
            text.removeAll { $0 == " " || $0 == "\t" }
            changes.append(MessageText("removed spaces"))
        }
        if text.utf8.contains(UInt8(ascii: "\\")) {
            text.removeAll { $0 == "\\" }
            changes.append(MessageText("removed backslash escapes"))
        }
        if text.asciiUppercased != text {
            text = text.asciiUppercased
            changes.append(MessageText("read names in upper case"))
        }
        let all = text.splitASCII(";", omittingEmptySubsequences: false)
        var parts = all.filter { !$0.isEmpty }.map(String.init)
        if parts.count != all.count && !parts.isEmpty { changes.append(MessageText("removed empty parts (a stray \";\")")) }
        guard !parts.isEmpty else { return (nil, [MessageText("empty: the event does not repeat")]) }
        if parts.contains(where: { $0.hasASCIIPrefix("SKIP=") }) && !parts.contains(where: { $0.hasASCIIPrefix("RSCALE=") }) {
            // RFC 7529 allows SKIP only with RSCALE; the evident meaning is the Gregorian calendar.
            parts.insert("RSCALE=GREGORIAN", at: 0)
            changes.append(MessageText("SKIP without RSCALE (RFC 7529 needs both): read as RSCALE=GREGORIAN"))
        }
        if let i = parts.firstIndex(where: { $0.hasASCIIPrefix("COUNT=") }), let n = Int(parts[i].dropFirst(6)), n < 1 {
            parts.remove(at: i)
            changes.append(MessageText("COUNT={count} counts nothing: the rule repeats without a count", ["count": "\(n)"]))
        }
        if parts.contains(where: { $0.hasASCIIPrefix("UNTIL=") }), let i = parts.firstIndex(where: { $0.hasASCIIPrefix("COUNT=") }) {
            changes.append(MessageText("COUNT and UNTIL together (RFC 5545 allows one): kept UNTIL, dropped {count}", ["count": parts[i]]))
            parts.remove(at: i)
        }
        return (parts.joined(separator: ";"), changes)
    }
}
