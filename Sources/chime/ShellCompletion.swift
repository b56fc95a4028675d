import ChimeCore
import ChimeStore
import Foundation

/// What the shells' completion scripts ask `chime` for while a command line is typed (bash, zsh
/// and fish call `chime ---completion …`): item IDs and one-word titles where an item is named,
/// calendar and list names where one is. Read from the store the line names (`--store`), or the
/// default one; nothing when there is no store or it cannot be read. The shells split answers on
/// white space, so names with spaces are left to be typed.
enum ShellCompletion {
    /// Items: the first 8 characters of matching IDs, and titles without spaces.
    @Sendable static func items(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let store = existingStore(words) else { return [] }
        var answers: [String] = []
        if let matches = try? store.items(identifierPrefix: prefix.uppercased(), limit: 50) {
            answers += matches.map { String($0.identifier.prefix(max(8, prefix.count))) }
        }
        if let matches = try? store.items(titleContaining: prefix, limit: 50) {
            answers += matches.map(\.title).filter { !$0.isEmpty && !$0.contains(where: \.isWhitespace) && $0.lowercased().hasPrefix(prefix.lowercased()) }
        }
        return Array(Set(answers)).sorted()
    }

    /// Calendar and reminder list names.
    @Sendable static func calendars(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let store = existingStore(words) else { return [] }
        let titles = EntityType.allCases.flatMap { (try? store.calendars(for: $0)) ?? [] }.map(\.title)
        return Array(Set(titles.filter { !$0.contains(where: \.isWhitespace) && $0.lowercased().hasPrefix(prefix.lowercased()) })).sorted()
    }

    /// The store the line names, if its file exists (completing never creates one).
    static func existingStore(_ words: [String]) -> EventStore? {
        let path = StoreOptions.resolvedPath(storePath(in: words)).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? StoreOptions.open(path, creating: false)
    }

    /// The value of `--store PATH` or `--store=PATH` on the line, if any.
    static func storePath(in words: [String]) -> String? {
        for (i, word) in words.enumerated() {
            if word == "--store", i + 1 < words.count { return words[i + 1] }
            if word.hasPrefix("--store=") { return String(word.dropFirst("--store=".count)) }
        }
        return nil
    }
}
