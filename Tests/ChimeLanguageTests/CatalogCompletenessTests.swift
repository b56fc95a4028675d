import Foundation
import Testing

/// Every text the sources hand to `messages(…)` or `messages.plural(…)` has an entry (with its
/// context) in every catalog. `make catalogs` refuses an entry left untranslated, but an entry
/// missing altogether is silently shown in English; this test catches that.
@Suite struct CatalogCompletenessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Key: Hashable, CustomStringConvertible {
        var context: String?
        var text: String
        var description: String { (context.map { "[\($0)] " } ?? "") + text }
    }

    /// The texts the sources translate: string literals passed to `messages(` (with a literal
    /// `context:`), the singular of `messages.plural(`, errors made with `InputError(translatable:`
    /// (and any other type's `translatable:` initializer) and `MessageText(`, outside comments.
    static func sourceTexts() throws -> [Key: String] {
        let call = try Regex(#"messages(\.plural)?\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*(?:"(?:[^"\\]|\\.)*"\s*,\s*)?(?:count:[^,)]*,\s*)?context:\s*"([^"]*)")?"#)
        // Errors written for translation: `InputError(translatable: "…"` (with a literal `context:`),
        // and texts kept for later: `MessageText("…"`, and the date reader's `Reason(translatable: "…"`.
        let translatableError = try Regex(
            #"(?:\b[A-Z]\w*\(\s*translatable:|MessageText\()\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*context:\s*"([^"]*)")?"#)
        var found: [Key: String] = [:]
        let sources = root.appendingPathComponent("Sources")
        let paths = FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []
        for path in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            // Comments out (a doc example is not a text shown to anyone).
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String(line) }.joined(separator: "\n")
            for match in code.matches(of: call) {
                let literal = match.output[2].substring.map(String.init) ?? ""
                let context = match.output[3].substring.map(String.init)
                found[Key(context: context, text: literal.replacingOccurrences(of: "\\\"", with: "\""))] = path
            }
            for match in code.matches(of: translatableError) {
                let literal = String(match.output[1].substring ?? "")
                let context = match.output[2].substring.map(String.init)
                found[Key(context: context, text: literal.replacingOccurrences(of: "\\\"", with: "\""))] = path
            }
        }
        return found
    }

    /// The `msgctxt`/`msgid` pairs of a `.po` file (strings continued over several lines joined).
    static func entries(_ po: String) -> Set<Key> {
        var keys: Set<Key> = [], context: String?, id: String?, field = ""
        func unquote(_ line: Substring) -> String {
            guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else { return "" }
            return String(line[line.index(after: first)..<last]).replacingOccurrences(of: "\\\"", with: "\"")
        }
        for line in po.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgctxt ") {
                context = unquote(line); field = "ctx"
            } else if line.hasPrefix("msgid ") {
                id = unquote(line); field = "id"
            } else if line.hasPrefix("\""), field == "id" {
                id = (id ?? "") + unquote(line)
            } else if line.hasPrefix("\""), field == "ctx" {
                context = (context ?? "") + unquote(line)
            } else if line.hasPrefix("msgid_plural") || line.hasPrefix("msgstr") {
                field = ""
            } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if let id, !id.isEmpty { keys.insert(Key(context: context, text: id)) }
                context = nil; id = nil; field = ""
            }
        }
        if let id, !id.isEmpty { keys.insert(Key(context: context, text: id)) }
        return keys
    }

    @Test func everyTranslatedTextHasAnEntryInEveryCatalog() throws {
        let texts = try Self.sourceTexts()
        #expect(texts.count >= 30, "the sources' texts were not found: \(texts.count)")
        #expect(texts[Key(context: "access button", text: "Don't Allow")] != nil, "a text with a context and a quote")
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("po").path)
            .filter { $0.hasSuffix(".po") }.sorted()
        #expect(catalogs.count >= 6)
        for catalog in catalogs {
            let po = try String(contentsOf: Self.root.appendingPathComponent("po/" + catalog), encoding: .utf8)
            let have = Self.entries(po)
            let missing = texts.keys.filter { !have.contains($0) }.map { "\($0) (\(texts[$0]!))" }.sorted()
            #expect(missing.isEmpty, "po/\(catalog) has no entry for: \(missing.joined(separator: "; "))")
        }
    }

    /// The reader of `.po` files sees what msgfmt sees: contexts, continued strings, plurals.
    @Test func thePoReaderReadsContextsContinuationsAndPlurals() {
        let po = """
            msgid ""
            msgstr "Content-Type: text/plain; charset=UTF-8\\n"

            #, no-c-format
            msgctxt "button"
            msgid "Show"
            msgstr "Anzeigen"

            msgid ""
            "A long "
            "text"
            msgstr "Ein langer Text"

            msgid "{count} more"
            msgid_plural "{count} more"
            msgstr[0] "{count} weitere"
            """
        #expect(
            Self.entries(po) == [
                Key(context: "button", text: "Show"), Key(context: nil, text: "A long text"),
                Key(context: nil, text: "{count} more")
            ])
    }
}
