/// Dates typed in the user's language, rewritten into the English that ``DateExpression`` reads:
/// `明天 10点半` → `tomorrow 10:30`, `через 2 часа` → `in 2 hours`, `nächsten Freitag um 9` →
/// `next friday at 9`. Pure data and one matcher: each language is a table of patterns (from the
/// translation catalog, see docs/languages.md), not code.
///
/// A table maps an English template to the patterns that say it. Patterns are literal text with
/// - `{n}`: a number (ASCII digits; full-width digits are folded first);
/// - `{weekday}`, `{month}`: one of the table's own weekday or month patterns;
/// - `(a|b|)`: one of the alternatives (an empty one makes it optional);
/// - `|` at the top level: another pattern for the same template.
/// Templates use `{1}`, `{2}` … for the numbers in order (two digits after a `:`), `{1:month}` for
/// a number as an English month name, and `{weekday}`, `{month}` for the English name matched.
///
/// Matching is case-insensitive, longest first at each position, and never begins or ends inside
/// a word of a spaced script (Latin, Cyrillic …) or a number, so `mar` is not found inside
/// `marzo`. Text no pattern matches passes through, and ``InputContext`` reads English before
/// the table, so English is read in every language.
///
/// ```swift
/// let zh = DatePhrases(["tomorrow": "明天", "{1}:{2}": "{n}点{n}分|{n}点{n}", "{1}:30": "{n}点半"])
/// zh.rewrite("明天 10点半")   // "tomorrow 10:30"
/// ```
public struct DatePhrases: Sendable {
    /// The English weekday and month names templates may produce, in the order of their numbers.
    public static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    public static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december"
    ]

    /// The catalog context the tables are kept under (`msgctxt "date input"`).
    public static let catalogContext = "date input"
    /// The context of the repeat tables (`--repeat 每周`), read by ``RecurrenceRule/init(phrase:)``.
    public static let repeatContext = "repeat input"

    /// The context of the duration tables (`--alarm "15 минут"`, `--duration "1 Stunde"`).
    public static let durationContext = "duration input"
    /// Every template a duration table may translate: lengths as `--alarm` and `--duration` read them.
    public static let durationTemplates: [String] = ["{1} minutes", "{1} hours", "{1} days", "{1} weeks", "{1} hours {2} minutes"]

    /// Every template a repeat table may translate: the English repeat phrases the rule reader takes.
    public static let repeatTemplates: [String] = [
        "daily", "weekdays", "weekends", "weekly", "monthly", "yearly",
        "every {weekday}", "every other {weekday}", "every other week", "every {1} days", "every {1} weeks", "every {1} months",
        "{1} times", "and", "until", "until december 31", "yearly on the chinese calendar", "yearly on the hebrew calendar",
        "monthly on day {1}", "{1} {weekday} of the month", "first {weekday} of the month", "second {weekday} of the month",
        "third {weekday} of the month", "fourth {weekday} of the month", "last {weekday} of the month"
    ]

    /// Every template a table may translate: the English ``DateExpression`` reads, with
    /// placeholders. A catalog's entry for one lists the ways its language says it.
    public static let templates: [String] =
        [
            "now", "today", "tomorrow", "overmorrow", "yesterday", "tonight", "noon", "midnight",
            "morning", "afternoon", "evening", "at", "on",
            "next week", "this week", "next month",
            "next {weekday}", "this {weekday}", "next week {weekday}", "this week {weekday}",
            "{1}:{2}", "{1}:30", "{1}:00", "{1}:15", "{1}:45",
            "in {1} minutes", "in {1} hours", "in {1} days", "in {1} weeks", "in 1 hour", "in 30 minutes",
            "{month} {1}", "{month} {1} {2}", "{1:month} {2}", "{1}-{2}-{3}"
        ] + weekdays + months

    private struct Rule: Sendable, Hashable {
        let template: String
        let pattern: [Node]
    }

    private indirect enum Node: Sendable, Hashable {
        case literal([Character])
        case number
        case weekday, month
        case choice([[Node]])
    }

    private var rules: [Rule] = []
    /// The table's own patterns for each weekday and month (by English name), for `{weekday}` and `{month}`.
    private var weekdayPatterns: [(name: String, pattern: [Node])] = []
    private var monthPatterns: [(name: String, pattern: [Node])] = []

    /// No table: the text is left as it is.
    public static let none = DatePhrases([:])

    public var isEmpty: Bool { rules.isEmpty }

    /// The table's words (`morgen`, `freitag`, `dezember`): what a slip in them is told it may have
    /// meant. Words of three letters or more (two in scripts written without spaces: `明日`).
    public var words: [String] {
        var found = Set<String>()
        // Each pattern spelled out (its groups' alternatives, at most 64 ways), placeholders as
        // spaces: `в следующ(ий|ую) {weekday}` gives `следующий` and `следующую`.
        func spellings(_ nodes: [Node]) -> [String] {
            var texts = [""]
            for node in nodes {
                switch node {
                case .literal(let chars): texts = texts.map { $0 + String(chars) }
                case .choice(let options):
                    let endings = options.flatMap(spellings)
                    texts = Array(texts.flatMap { text in endings.map { text + $0 } }.prefix(64))
                case .number, .weekday, .month: texts = texts.map { $0 + " " }
                }
            }
            return texts
        }
        for pattern in rules.map(\.pattern) + (weekdayPatterns + monthPatterns).map(\.pattern) {
            for text in spellings(pattern) {
                for word in text.split(whereSeparator: { !$0.isLetter }) where Self.isHintable(word) { found.insert(String(word)) }
            }
        }
        return found.sorted()
    }

    /// The table's word (or one of `alsoKnown`) a slip in `text` may have meant: the first word as
    /// typed, or left unread between the table's phrases where words are not spaced (`明目10時`),
    /// that is not a known word and is near one. Of equally near words, the first whose
    /// substitution `fits` accepts (the whole text then reads).
    ///
    /// ```swift
    /// german.wordMeant(in: "nächsten Dienstg")   // "Dienstag", written as the slip was
    /// ```
    public func wordMeant(in text: String, alsoKnown: [String] = [], fits: (String) -> Bool = { _ in true }) -> String? {
        let known = words + alsoKnown
        let vocabulary = Set(known)
        let folded = Self.fold(text)
        let typed = folded.split(whereSeparator: \.isWhitespace).map(String.init)
        let unread = rewrite(text).split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.allSatisfy(\.isASCII) }
        // A word typed without its accents (`proximo`) is the table's word, not a slip.
        func isKnown(_ word: String) -> Bool {
            vocabulary.contains(word) || known.contains { Self.literalEnd(Array($0), in: Array(word), from: 0) == word.count }
        }
        for word in typed + unread where Self.isHintable(word) && word.contains(where: \.isLetter) && !isKnown(word) {
            guard let near = EditDistance.closest(to: word, in: known, where: { fits(folded.replacingOccurrences(of: word, with: $0)) })
            else { continue }
            // Written as the slip was: `Dienstg` → `Dienstag`, `dienstg` → `dienstag`.
            let typedAs = text.split(whereSeparator: \.isWhitespace).first { Self.fold(String($0)) == word }
            return typedAs?.first?.isUppercase == true ? near.prefix(1).uppercased() + near.dropFirst() : near
        }
        return nil
    }

    /// A word long enough to be told apart from others by a near spelling: three letters, or two
    /// in scripts written without spaces (`明日`).
    public static func isHintable(_ word: some StringProtocol) -> Bool {
        word.count >= 3 || (word.count == 2 && !word.contains(where: isWordCharacter))
    }

    /// A few dates as the language types them, for error messages (``exampleTemplate`` translated).
    public var examples: String?

    /// The catalog entry (context `date examples`) whose translation lists typed dates.
    public static let exampleTemplate = "tomorrow 10:00, next week friday 9:00, in 2 hours, Dec 25"

    /// The catalog entry (context `repeat examples`) whose translation lists typed repeats.
    public static let repeatExampleTemplate = "weekly, every monday and thursday, every 2 weeks, monthly on day 15, weekly until March 1"

    /// A table from template → patterns (as the catalog gives them). Malformed patterns (an
    /// unclosed group) are left out, so one bad entry in a catalog does not stop the others.
    /// `names`: a table whose weekday and month entries `{weekday}` and `{month}` use, when this
    /// one has none of its own (a repeat table uses the date table's names).
    public init(_ table: [String: String], names: [String: String] = [:]) {
        for (template, text) in names.merging(table, uniquingKeysWith: { _, own in own }).sorted(by: { $0.key < $1.key }) {
            for nodes in Self.patterns(text) {
                if table[template] != nil { rules.append(Rule(template: template, pattern: nodes)) }
                if Self.weekdays.contains(template) { weekdayPatterns.append((template, nodes)) }
                if Self.months.contains(template) { monthPatterns.append((template, nodes)) }
            }
        }
    }

    /// `text` as a reader takes it: as typed when `readsAsTyped` accepts it (English is read in
    /// every language: `in 2h` stays an offset in French, where `2h` is a time), else rewritten.
    ///
    /// ```swift
    /// zh.english("明天 10点") { (try? DateExpression.parse($0, now: now, zone: zone)) != nil }   // "tomorrow 10:00"
    /// ```
    public func english(_ text: String, readsAsTyped: (String) -> Bool) -> String {
        guard !isEmpty, !readsAsTyped(text) else { return text }
        return rewrite(text)
    }

    /// The text with every phrase of the table replaced by its English template (surrounded by
    /// spaces), full-width forms folded and letters lower-cased; text no pattern matches is kept.
    public func rewrite(_ text: String) -> String {
        let input = Array(Self.fold(text))
        var out = ""
        var i = 0
        for phrase in phrases(input) {
            out += String(input[i..<phrase.range.lowerBound]) + " " + phrase.text + " "
            i = phrase.range.upperBound
        }
        out += String(input[i...])
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The text, folded, before and after the last phrase the table reads as `template`; nil
    /// when there is none. For a phrase whose tail is read by another table: `wöchentlich bis
    /// 1. März` splits at `until` into `wöchentlich` and `1. märz`, each then read as typed.
    ///
    /// ```swift
    /// repeats.split("jeden Montag bis nächsten Freitag", atLast: "until")   // ("jeden montag", "nächsten freitag")
    /// ```
    public func split(_ text: String, atLast template: String) -> (before: String, after: String)? {
        let input = Array(Self.fold(text))
        guard let last = phrases(input).last(where: { $0.template == template }) else { return nil }
        return (String(input[..<last.range.lowerBound]).trimming(" "), String(input[last.range.upperBound...]).trimming(" "))
    }

    /// The phrases the table reads in `input`, left to right, each the longest match at its place.
    private func phrases(_ input: [Character]) -> [(range: Range<Int>, text: String, template: String)] {
        var found: [(range: Range<Int>, text: String, template: String)] = []
        guard !rules.isEmpty else { return found }
        var i = 0
        while i < input.count {
            var best: (end: Int, text: String, template: String)?
            for rule in rules {
                guard Self.mayStart(rule.pattern, at: i, in: input) else { continue }
                for m in matches(rule.pattern, input, i, Capture()) where m.end > i && (best == nil || m.end > best!.end) {
                    guard Self.mayEnd(rule.pattern, at: m.end, in: input) else { continue }
                    // A year has three digits or more: in `1. März 10 Uhr` the 10 is the hour.
                    if rule.template == "{month} {1} {2}", let year = m.capture.numbers.last, year < 100 { continue }
                    best = (m.end, Self.render(rule.template, m.capture), rule.template)
                }
            }
            if let best {
                found.append((i..<best.end, best.text, best.template))
                i = best.end
            } else {
                i += 1
            }
        }
        return found
    }

    // MARK: Matching

    private struct Capture {
        var numbers: [Int] = []
        var weekday: String?
        var month: String?
    }

    /// Every way `nodes` matches `input` from `start`: where it ends and what it captured.
    private func matches(_ nodes: [Node], _ input: [Character], _ start: Int, _ capture: Capture) -> [(end: Int, capture: Capture)] {
        guard let first = nodes.first else { return [(start, capture)] }
        let rest = Array(nodes.dropFirst())
        var found: [(end: Int, capture: Capture)] = []
        switch first {
        case .literal(let chars):
            guard let end = Self.literalEnd(chars, in: input, from: start) else { return [] }
            found += matches(rest, input, end, capture)
        case .number:
            var end = start
            while end < input.count, let d = input[end].asciiValue, (48...57).contains(d), end - start < 9 { end += 1 }
            guard end > start, let n = Int(String(input[start..<end])) else { return [] }
            var c = capture
            c.numbers.append(n)
            found += matches(rest, input, end, c)
        case .weekday, .month:
            for (name, pattern) in first == .weekday ? weekdayPatterns : monthPatterns {
                for m in matches(pattern, input, start, capture) where m.end > start {
                    var c = m.capture
                    if first == .weekday { c.weekday = name } else { c.month = name }
                    found += matches(rest, input, m.end, c)
                }
            }
        case .choice(let options):
            for option in options { found += matches(option + rest, input, start, capture) }
        }
        return found
    }

    /// Where `literal` ends when it is typed at `start`: as written, or without its accents as
    /// keyboards without them type it (`manana`, `fevrier`, `naechsten`, `Maerz`, `jusqu'au`).
    private static func literalEnd(_ literal: [Character], in input: [Character], from start: Int) -> Int? {
        var j = start
        for c in literal {
            guard j < input.count else { return nil }
            if input[j] == c {
                j += 1
                continue
            }
            guard let plain = unaccented[c] else { return nil }
            if let spelled = plain.spelled, j + 1 < input.count, input[j] == spelled.0, input[j + 1] == spelled.1 {
                j += 2
            } else if input[j] == plain.base {
                j += 1
            } else {
                return nil
            }
        }
        return j
    }

    /// A letter's form without its accent, and its two-letter spelling where a language has one (German `ä` → `ae`).
    private static let unaccented: [Character: (base: Character, spelled: (Character, Character)?)] = {
        var table: [Character: (base: Character, spelled: (Character, Character)?)] = [
            "ä": ("a", ("a", "e")), "ö": ("o", ("o", "e")), "ü": ("u", ("u", "e")), "ß": ("s", ("s", "s")),
            "ё": ("е", nil), "’": ("'", nil)
        ]
        for (letters, base) in [("àáâãå", "a"), ("ç", "c"), ("èéêë", "e"), ("ìíîï", "i"), ("ñ", "n"), ("òóôõ", "o"), ("ùúû", "u"), ("ÿý", "y")] {
            for letter in letters { table[letter] = (Character(base), nil) }
        }
        return table
    }()

    private static func render(_ template: String, _ capture: Capture) -> String {
        var out = ""
        var chars = template[...]
        while let c = chars.first {
            chars.removeFirst()
            guard c == "{", let close = chars.firstIndex(of: "}") else { out.append(c); continue }
            let name = chars[..<close]
            chars = chars[chars.index(after: close)...]
            switch name {
            case "weekday": out += capture.weekday ?? ""
            case "month": out += capture.month ?? ""
            default:
                let parts = name.split(separator: ":")
                guard let index = Int(parts[0]), index >= 1, index <= capture.numbers.count else { continue }
                let n = capture.numbers[index - 1]
                if parts.count > 1, parts[1] == "month" {
                    out += (1...12).contains(n) ? months[n - 1] : "month\(n)"
                } else {
                    out += out.last == ":" && n < 10 ? "0\(n)" : "\(n)"
                }
            }
        }
        return out
    }

    // MARK: Word boundaries

    /// Letters of scripts written with spaces between words, and ASCII digits: a match may not
    /// begin or end inside a run of these (`mar` is not found inside `marzo`, `1h` not inside
    /// `1h30m`). Han, kana and Hangul are written without spaces: `明天10点` splits anywhere.
    private static func isWordCharacter(_ c: Character) -> Bool {
        if let ascii = c.asciiValue { return (48...57).contains(ascii) || c.isLetter }
        guard c.isLetter, let scalar = c.unicodeScalars.first?.value else { return false }
        let unspaced =
            (0x3040...0x30FF).contains(scalar) || (0x3400...0x9FFF).contains(scalar)
            || (0xAC00...0xD7AF).contains(scalar) || (0xF900...0xFAFF).contains(scalar)
        return !unspaced
    }

    private static func mayStart(_ pattern: [Node], at i: Int, in input: [Character]) -> Bool {
        i == 0 || !(isWordCharacter(input[i - 1]) && isWordCharacter(input[i]))
    }

    private static func mayEnd(_ pattern: [Node], at end: Int, in input: [Character]) -> Bool {
        guard end < input.count else { return true }
        if isWordCharacter(input[end - 1]) && isWordCharacter(input[end]) { return false }
        // Nor where a number goes on as a time of day: in `25. Dezember 18:00` the 18 is the
        // hour, not the year a longer pattern would take it for.
        return !(isDigit(input[end - 1]) && (input[end] == ":" || input[end] == ".") && end + 1 < input.count && isDigit(input[end + 1]))
    }

    private static func isDigit(_ c: Character) -> Bool { c.asciiValue.map { (48...57).contains($0) } ?? false }

    // MARK: Reading the table

    /// Lower case, full-width ASCII (`１０：３０`) and the ideographic space folded to ASCII.
    public static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.value {
            case 0xFF01...0xFF5E: out.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            case 0x3000: out.append(" ")
            default: out.append(scalar)
            }
        }
        return String(out).lowercased()
    }

    /// The patterns an entry lists (its top-level alternatives), each parsed; malformed ones left out.
    private static func patterns(_ text: String) -> [[Node]] {
        splitTopLevel(fold(text)).filter { !$0.isEmpty }.compactMap { parse(Array($0)) }
    }

    /// `a|(b|c)d` → `a`, `(b|c)d`.
    private static func splitTopLevel(_ text: String) -> [String] {
        var parts: [String] = [], current = "", depth = 0
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == "|" && depth == 0 { parts.append(current); current = "" } else { current.append(c) }
        }
        parts.append(current)
        return parts.map { $0.trimming(" ") }
    }

    private static func parse(_ chars: [Character]) -> [Node]? {
        var i = 0
        let nodes = parseSequence(chars, &i, inGroup: false)
        return i == chars.count ? nodes : nil
    }

    private static func parseSequence(_ chars: [Character], _ i: inout Int, inGroup: Bool) -> [Node]? {
        var nodes: [Node] = []
        var literal: [Character] = []
        func flush() { if !literal.isEmpty { nodes.append(.literal(literal)); literal = [] } }
        while i < chars.count {
            let c = chars[i]
            if inGroup && (c == "|" || c == ")") { break }
            if c == "(" {
                flush()
                i += 1
                var options: [[Node]] = []
                while true {
                    guard let option = parseSequence(chars, &i, inGroup: true), i < chars.count else { return nil }
                    options.append(option)
                    if chars[i] == ")" { i += 1; break }
                    i += 1  // "|"
                }
                nodes.append(.choice(options))
                continue
            }
            if c == "{", let close = chars[i...].firstIndex(of: "}") {
                let name = String(chars[(i + 1)..<close])
                let node: Node? = name == "n" ? .number : name == "weekday" ? .weekday : name == "month" ? .month : nil
                if let node {
                    flush()
                    nodes.append(node)
                    i = close + 1
                    continue
                }
            }
            literal.append(c)
            i += 1
        }
        flush()
        return nodes
    }
}

private extension String {
    func trimming(_ set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
