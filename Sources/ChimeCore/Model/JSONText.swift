/// Minimal JSON writing with a fixed key order, so outputs are stable and diffable.
///
/// Every JSON text Chime gives out (`--json`, the D-Bus service, the daemon's stdout lines) is
/// one object that opens with `"chime_json": 1`, written by ``document(_:)``; the shapes
/// inside are described in docs/json.md.
public enum JSONText {
    /// The version of Chime's JSON shapes: raised when a field is renamed, removed or changes
    /// meaning (adding a field does not raise it), so a script can refuse what it does not know.
    public static let version = 1

    /// The `"chime_json":1,` that opens a document, for writers that stream their output.
    public static let documentOpening = "{\"chime_json\":\(version),"

    /// A whole JSON output: an object whose first field is `"chime_json"`.
    ///
    /// ```swift
    /// JSONText.document([("calendars", "[]")])   // {"chime_json":1,"calendars":[]}
    /// ```
    public static func document(_ fields: [(String, String)]) -> String {
        object([("chime_json", "\(version)")] + fields)
    }

    public static func string(_ s: String) -> String {
        if isPlain(s) { return "\"" + s + "\"" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || DisplayText.isUnsafe(u):  // also DEL, C1 and bidi overrides, so a terminal never sees them
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// An object written by ``object(_:)`` made a whole output: `"chime_json"` put first.
    public static func versioned(_ object: String) -> String {
        guard object.hasPrefix("{") else { return object }
        return object == "{}" ? document([]) : documentOpening + object.dropFirst()
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// A JSON array of strings, written into one buffer: what `array(items.map(string))` writes,
    /// without a string for each item (an import journals 10,000 identifiers at once).
    ///
    /// ```swift
    /// JSONText.stringArray(["a", "b\"c"])   // ["a","b\"c"]
    /// ```
    public static func stringArray(_ items: [String]) -> String {
        // The bytes of each plain string are copied as they are: appending to a String three
        // times per item cost 2,000 instructions an identifier.
        var capacity = 2
        for item in items { capacity += item.utf8.count + 3 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var text = item
            let copied = text.withUTF8 { utf8 -> Bool in
                guard isPlain(utf8) else { return false }
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return true
            }
            if !copied { bytes.append(contentsOf: string(item).utf8) }
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Most strings (identifiers, zone names, plain titles) are printable ASCII without a quote
    /// or a backslash: checked on their bytes, copied whole (an agenda's `--json` escapes every
    /// event's fields once, 10,000 events for a year).
    private static func isPlain(_ s: String) -> Bool {
        var bytes = s
        return bytes.withUTF8(isPlain)
    }

    private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in utf8 where b < 0x20 || b >= 0x7F || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
        return true
    }

    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
