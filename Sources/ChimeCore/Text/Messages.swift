/// What the user reads, in their language: a translation lookup and the way their language writes
/// a day, handed to whatever writes text (the notifications, the agenda), so that nothing below the
/// edge reads the environment or a catalog itself. ``english`` is the text as written here.
///
/// A translatable text is a `StaticString`, so it cannot hold Swift interpolation (`\(…)` does
/// not compile there): values go in as `{name}` placeholders, filled after the translation, so a
/// translator can move them.
///
/// ```swift
/// let text = messages("Invitation from {name}", ["name": "Bob Stone"])
/// let title = messages.plural("You missed {count} alarm", "You missed {count} alarms", count: 5)
/// messages.dayHeading(CivilDate(year: 2026, month: 12, day: 1))   // "Tue 2026-12-01" in English
/// ```
public struct Messages: Sendable {
    /// The translation of a text (in a context), nil when there is none.
    public typealias Lookup = @Sendable (_ text: String, _ context: String?) -> String?
    /// The translation of a plural pair for a count (the language's own plural rule), nil when none.
    public typealias PluralLookup = @Sendable (_ singular: String, _ plural: String, _ count: Int) -> String?

    private let lookup: Lookup
    private let pluralLookup: PluralLookup
    private let heading: @Sendable (CivilDate) -> String
    /// The language's name as the catalog knows it (`ru_RU.UTF-8`), nil for English.
    public let language: String?

    public init(
        language: String?, lookup: @escaping Lookup, plural: @escaping PluralLookup,
        dayHeading: @escaping @Sendable (CivilDate) -> String = DisplayText.dayHeading
    ) {
        self.language = language
        self.lookup = lookup
        self.pluralLookup = plural
        self.heading = dayHeading
    }

    /// The text as written in the sources, and days as `Mon 2026-11-23`.
    public static let english = Messages(language: nil, lookup: { _, _ in nil }, plural: { _, _, _ in nil })

    /// `text` in the user's language with its `{name}` placeholders filled from `values`.
    public func callAsFunction(_ text: StaticString, context: StaticString? = nil, _ values: KeyValuePairs<String, String> = [:]) -> String {
        let source = text.description
        return Self.fill(lookup(source, context?.description) ?? source, values)
    }

    /// A text written for translation earlier (an error), in the user's language.
    public func callAsFunction(_ text: MessageText) -> String {
        Self.fill(lookup(text.template, text.context) ?? text.template, text.values + text.parts.map { ($0.0, self($0.1)) })
    }

    /// The singular or plural form for `count` (Russian has three): `{count}` is filled with it.
    public func plural(_ singular: StaticString, _ plural: StaticString, count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
        let translated =
            pluralLookup(singular.description, plural.description, count)
            ?? (count == 1 ? singular.description : plural.description)
        return Self.fill(translated, values, count: count)
    }

    /// A day as the user's language writes it in a heading (`Mon 2026-11-23`, `23 ноября 2026, пн`).
    public func dayHeading(_ date: CivilDate) -> String { heading(date) }

    private static func fill(_ text: String, _ values: KeyValuePairs<String, String>, count: Int? = nil) -> String {
        fill(text, values.map { ($0.key, $0.value) }, count: count)
    }

    /// One pass over the text's `{name}` tokens: a value that itself holds braces (a path such as
    /// `/x/{source}`, a title) is written as it is, never filled in turn. Unknown names stay.
    fileprivate static func fill(_ text: String, _ values: [(String, String)], count: Int? = nil) -> String {
        guard text.contains("{") else { return text }
        var table: [Substring: String] = [:]
        if let count { table["count"] = "\(count)" }
        for (name, value) in values { table[Substring(name)] = value }
        var out = "", rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                let value = table[rest[afterOpen..<close]]
            else {
                out.append("{")
                rest = rest[afterOpen...]
                continue
            }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}

/// A text to be read in the user's language later, at the edge: its English template (a literal,
/// so it holds `{name}` placeholders and never interpolation), its context and its values. What
/// logs, JSON and the D-Bus interface carry is ``english``; what a person reads is `messages(text)`.
///
/// ```swift
/// let text = MessageText("no calendar or list \"{name}\"", ["name": "Wrok"])
/// text.english          // no calendar or list "Wrok"
/// messages(text)        // нет календаря или списка «Wrok»
/// ```
public struct MessageText: Sendable {
    public let template: String
    public let context: String?
    public let values: [(String, String)]
    /// Placeholders filled with texts translated in their turn (a reason inside a sentence).
    public let parts: [String: MessageText]

    public init(
        _ template: StaticString, context: StaticString? = nil, _ values: KeyValuePairs<String, String> = [:],
        parts: [String: MessageText] = [:]
    ) {
        self.template = template.description
        self.context = context?.description
        self.values = values.map { ($0.key, $0.value) }
        self.parts = parts
    }

    /// The text as written in the sources, its placeholders filled.
    public var english: String { Messages.fill(template, values + parts.map { ($0.0, $0.1.english) }) }

    /// A text that has no translation (a library's own error, say), for a placeholder of one
    /// that has: it reads the same in every language.
    ///
    /// ```swift
    /// MessageText("{problem}; {done}", context: "repair", parts: ["problem": .verbatim("\(error)"), "done": MessageText("the line was skipped")])
    /// ```
    public static func verbatim(_ text: String) -> MessageText { MessageText(verbatimTemplate, ["text": text]) }

    /// Two texts one after the other, each read in the user's language.
    public static func + (first: MessageText, second: MessageText) -> MessageText {
        MessageText(joinedTemplate, parts: ["first": first, "second": second])
    }

    /// Not catalog entries: looked up, they are found in none, so they are filled in as they are.
    private static let verbatimTemplate: StaticString = "{text}"
    private static let joinedTemplate: StaticString = "{first}{second}"
}
