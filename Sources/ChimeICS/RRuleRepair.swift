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
        isAlreadyNormal(raw) ? (raw, []) : repaired(raw)
    }

    /// The repairs themselves, step by step (``normalize(_:)`` skips them for a rule they would
    /// leave as it is).
    static func repaired(_ raw: String) -> (text: String?, changes: [MessageText]) {
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

    /// True only when ``repaired(_:)`` would change nothing (false does not mean it would),
    /// found in one pass over the bytes: most
    /// rules are written cleanly, and the repairs' own pass made a string of each part and joined
    /// them again (a rule's repair cost as much as reading it). Anything unusual is left to the
    /// repairs: a byte outside upper-case ASCII, a space, tab or backslash, an empty part, a
    /// repeated `RRULE:`, SKIP, UNTIL beside COUNT, a COUNT that is not plain digits above zero.
    static func isAlreadyNormal(_ rule: String) -> Bool {
        var rule = rule
        return rule.withUTF8 { bytes in
            let semicolon = UInt8(ascii: ";")
            guard let first = bytes.first, first != semicolon, bytes.last != semicolon else { return false }
            var hasCount = false, hasUntil = false
            var partStart = 0
            for i in 0...bytes.count {
                if i < bytes.count {
                    let c = bytes[i]
                    if c >= 0x80 || c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\\") || (c >= 97 && c <= 122) {
                        return false
                    }
                    if c != semicolon { continue }
                    if i == partStart { return false }  // ";;"
                }
                let part = UnsafeBufferPointer(rebasing: bytes[partStart..<i])
                if part.starts(with: "RRULE:".utf8) || part.starts(with: "SKIP=".utf8) { return false }
                if part.starts(with: "UNTIL=".utf8) { hasUntil = true }
                if part.starts(with: "COUNT=".utf8) {
                    let digits = part.dropFirst(6)
                    guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }), digits.contains(where: { $0 != 48 }) else { return false }
                    hasCount = true
                }
                partStart = i + 1
            }
            return !(hasCount && hasUntil)
        }
    }
}
