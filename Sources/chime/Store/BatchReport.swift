import ChimeCore
import ChimeFormat

/// One step per account or subscribed calendar, reported in one voice: with --json one document
/// (`{"chime_json":1,"results":[…]}` with the steps' objects, a failed step as `{KEY: name, "error": …}`;
/// a single item named on the command line as its object alone, the version put first), else each step's own text; the failures are thrown
/// together at the end, so one bad item never stops the others.
enum BatchReport {
    /// `step` returns its JSON object in --json mode (and prints its text otherwise).
    static func run<Item>(
        _ items: [Item], json: Bool, single: Bool = false, key: String, name: (Item) -> String,
        _ step: (Item) async throws -> String?
    ) async throws {
        var failures: [String] = [], objects: [String] = []
        for item in items {
            do {
                if let object = try await step(item) { objects.append(object) }
            } catch {
                // An error may quote a server's or a feed's text: one line, no terminal controls.
                failures.append(DisplayText.singleLine(CLIContext.text(of: error)))
                if json { objects.append(JSONText.object([(key, JSONText.string(name(item))), ("error", JSONText.string("\(error)"))])) }
            }
        }
        if json { print(single ? objects.first.map(JSONText.versioned) ?? JSONText.document([]) : JSONText.document([("results", JSONText.array(objects))])) }
        // Further lines start under the first one's text, after the "Error: " label of the language.
        let indent = String(repeating: " ", count: DisplayText.columns(CLIContext.messages("Error: {message}", ["message": ""])))
        if !failures.isEmpty { throw InputError(failures.joined(separator: "\n" + indent)) }
    }
}
