/// A fixed set of property names, asked about every line of every item an import reads.
///
/// Names are grouped by their length in bytes, so a question compares the name with the two or
/// three names of its length: property names are short and stored inline in their `String`,
/// where a `Set<String>` hashes each name in full before it compares (3 % of an import's
/// reading thread).
///
/// ```swift
/// let known = PropertyNameSet(["UID", "SUMMARY", "DTSTART"])
/// known.contains("SUMMARY")      // true
/// known.contains("X-APPLE-FOO")  // false
/// ```
struct PropertyNameSet: Sendable {
    private let byLength: [[String]]

    init(_ names: [String]) {
        var byLength = [[String]](repeating: [], count: (names.map(\.utf8.count).max() ?? 0) + 1)
        for name in Set(names) { byLength[name.utf8.count].append(name) }
        self.byLength = byLength
    }

    func contains(_ name: String) -> Bool {
        let length = name.utf8.count
        return length < byLength.count && byLength[length].contains(name)
    }
}
