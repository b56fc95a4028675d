import CIntl
import ChimeCore
import Foundation

/// The user's language as the POSIX environment gives it. Foundation's `Locale.current` cannot be
/// asked on Linux (it is `en_001` whatever `LANG` says), so the variables are read here, in the
/// order C programs follow: `LC_ALL`, then the category's own (`LC_MESSAGES`, `LC_TIME`), then `LANG`.
///
/// ```swift
/// let locale = LocaleEnvironment(["LANG": "ru_RU.UTF-8", "LC_TIME": "de_DE.UTF-8"])
/// locale.messages   // "ru_RU.UTF-8"
/// locale.time       // "de_DE.UTF-8"
/// ```
public struct LocaleEnvironment: Sendable, Hashable {
    /// The locale messages (and typed words) follow; nil for C/POSIX or nothing set.
    public let messages: String?
    /// The locale dates are written in; nil for C/POSIX or nothing set.
    public let time: String?

    public init(_ environment: [String: String]) {
        func pick(_ category: String) -> String? {
            let value = [environment["LC_ALL"], environment[category], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty }
            guard let value else { return nil }
            let name = value.prefix { $0 != "." && $0 != "@" }
            return name == "C" || name == "POSIX" || name.isEmpty ? nil : value
        }
        messages = pick("LC_MESSAGES")
        time = pick("LC_TIME")
    }
}

/// The `chime` translation catalog (gettext's `.mo` files), read for one locale without changing
/// the process's locale: each lookup runs under that locale on the calling thread only
/// (`uselocale`), so a daemon can answer each call in the language of that moment. Where the
/// catalog comes from: `$CHIME_LOCALEDIR`, else `share/locale` beside the installed binary
/// (`<prefix>/bin/chime` → `<prefix>/share/locale`), else `locale` in the build folder.
///
/// ```swift
/// let catalog = MessageCatalog(locale: LocaleEnvironment(env).messages)
/// catalog.text("tomorrow", context: "date input")   // "завтра|назавтра" in Russian
/// ```
public final class MessageCatalog: @unchecked Sendable {
    /// The text domain: the catalogs are `<dir>/<language>/LC_MESSAGES/chime.mo`.
    public static let domain = "chime"

    /// Nil when the locale is C, or glibc knows no such locale (not generated on this machine).
    private let locale: locale_t?
    private let folder: String?
    /// The locale name asked for.
    public let name: String?

    /// `locale`: a POSIX locale name (`ru_RU.UTF-8`); nil for English. `folder`: where the
    /// catalogs are (default: ``folder(environment:executable:)``).
    public init(locale: String?, folder: String? = MessageCatalog.folder()) {
        name = locale
        if let locale, let folder {
            self.folder = folder
            self.locale = chime_newlocale(locale)
        } else {
            self.folder = nil
            self.locale = nil
        }
    }

    deinit { if let locale { freelocale(locale) } }

    /// Whether the locale exists here and a catalog could be asked (lookups may still find none).
    public var isOpen: Bool { locale != nil }

    /// The translation of `text` in `context` (gettext's `pgettext`); nil when there is none.
    public func text(_ text: String, context: String? = nil) -> String? {
        let key = context.map { $0 + "\u{4}" + text } ?? text
        // Untranslated, gettext answers the key's own pointer: read it while the key lives.
        return underLocale {
            key.withCString { pointer -> String? in
                guard let translated = dgettext(Self.domain, pointer), translated != UnsafePointer(pointer) else { return nil }
                return String(cString: translated)
            }
        }
    }

    /// `body` run under this catalog's locale on the calling thread; nil for a closed catalog.
    private func underLocale<T>(_ body: () -> T?) -> T? {
        guard let locale, let folder else { return nil }
        // The domain's folder is the process's, not the catalog's: a lookup binds its own and
        // reads under the same lock, so two catalogs of different folders (doctor's check of
        // one, the tests') never read from each other's.
        Self.bound.lock()
        defer { Self.bound.unlock() }
        Self.bind(folder)
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return body()
    }

    /// The plural form of a pair for `count` by the language's own rule (gettext's `ngettext`);
    /// nil when the catalog has no translation.
    public func plural(_ singular: String, _ plural: String, count: Int, context: String? = nil) -> String? {
        let one = context.map { $0 + "\u{4}" + singular } ?? singular
        return underLocale {
            one.withCString { s in
                plural.withCString { p in
                    guard let translated = dngettext(Self.domain, s, p, UInt(max(0, count))),
                        translated != UnsafePointer(s), translated != UnsafePointer(p)
                    else { return nil }
                    return String(cString: translated)
                }
            }
        }
    }

    /// `format` (strftime's) for a day, with the locale's day and month names.
    public func format(_ date: CivilDate, _ format: String) -> String? {
        guard let locale else { return nil }
        var t = tm()
        t.tm_year = Int32(date.year - 1900)
        t.tm_mon = Int32(date.month - 1)
        t.tm_mday = Int32(date.day)
        t.tm_wday = Int32((date.weekday.isoIndex + 1) % 7)
        t.tm_hour = 12
        var buffer = [CChar](repeating: 0, count: 256)
        let count = strftime_l(&buffer, buffer.count, format, &t, locale)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder holding the catalogs: `$CHIME_LOCALEDIR`, then `../share/locale` from the
    /// running binary, then `locale` beside it (a build folder); nil when none exists.
    public static func folder(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String = CommandLine.arguments.first.map(resolved) ?? ""
    ) -> String? {
        if let given = environment["CHIME_LOCALEDIR"], !given.isEmpty { return given }
        let bin = (executable as NSString).deletingLastPathComponent
        for candidate in [bin + "/../share/locale", bin + "/locale"] where FileManager.default.fileExists(atPath: candidate) {
            return (candidate as NSString).standardizingPath
        }
        return nil
    }

    /// The binary's real path (`/proc/self/exe`), so a symlink in `~/.local/bin` still finds its `share`.
    public static func resolved(_ argument0: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? argument0
    }

    private static let bound = NSLock()
    nonisolated(unsafe) private static var boundFolder: String?

    /// gettext's domain binding is process-wide: bound once per folder, UTF-8 out whatever the locale's charset.
    /// Called with `bound` held.
    private static func bind(_ folder: String) {
        guard boundFolder != folder else { return }
        bindtextdomain(domain, folder)
        bind_textdomain_codeset(domain, "UTF-8")
        boundFolder = folder
    }
}

extension DatePhrases {
    /// The date words of the catalog's language (the `date input` context: each template of
    /// ``DatePhrases/templates`` with the patterns that say it); empty for English or no catalog.
    ///
    /// ```swift
    /// let phrases = DatePhrases(catalog: MessageCatalog(locale: "zh_CN.UTF-8"))
    /// phrases.rewrite("下周五 下午3点")   // "next week friday afternoon 3:00"
    /// ```
    public init(catalog: MessageCatalog) {
        self.init(Self.table(catalog, DatePhrases.catalogContext, DatePhrases.templates))
        examples = catalog.text(DatePhrases.exampleTemplate, context: "date examples")
    }

    /// The repeat words of the catalog's language (`每周`, `каждый понедельник`, `jeden Montag`),
    /// with the date table's weekday and month names.
    public init(repeatsIn catalog: MessageCatalog) {
        // A repeat table may add short weekday names that only a repeat reads (`毎週月・木`, `每周一、四`):
        // alone in a date, `月` is a month and `一` a number.
        let short = Self.table(catalog, DatePhrases.repeatContext, DatePhrases.weekdays)
        let names = Self.table(catalog, DatePhrases.catalogContext, DatePhrases.weekdays + DatePhrases.months)
            .merging(short) { date, own in date + "|" + own }
        // A weekday alone is read too, for the days after the first: `jeden Montag und Donnerstag`,
        // and in the plural some languages use there (`tous les lundis et jeudis`).
        let weekdays = names.filter { DatePhrases.weekdays.contains($0.key) }.mapValues { "(\($0))(s|)" }
        self.init(
            Self.table(catalog, DatePhrases.repeatContext, DatePhrases.repeatTemplates).merging(weekdays) { own, _ in own },
            names: names)
        examples = catalog.text(DatePhrases.repeatExampleTemplate, context: "repeat examples")
    }

    /// The length words of the catalog's language (`15 минут`, `1 Stunde`, `2小时`), for alarm
    /// offsets and durations; a length that reads as English is never rewritten.
    public init(durationsIn catalog: MessageCatalog) {
        self.init(Self.table(catalog, DatePhrases.durationContext, DatePhrases.durationTemplates))
    }

    private static func table(_ catalog: MessageCatalog, _ context: String, _ templates: [String]) -> [String: String] {
        var table: [String: String] = [:]
        for template in templates {
            if let patterns = catalog.text(template, context: context) { table[template] = patterns }
        }
        return table
    }
}

extension Messages {
    /// Messages in the catalog's language; days in headings as its `day heading` entry writes them
    /// (a strftime format: `%Y年%-m月%-d日 %A`), with the names of `timeLocale`'s days and months.
    ///
    /// ```swift
    /// let env = LocaleEnvironment(ProcessInfo.processInfo.environment)
    /// let messages = Messages(catalog: MessageCatalog(locale: env.messages), time: MessageCatalog(locale: env.time))
    /// ```
    public init(catalog: MessageCatalog, time: MessageCatalog? = nil) {
        guard catalog.isOpen || time?.isOpen == true else { self = .english; return }
        let dates = time?.isOpen == true ? time! : catalog
        let headingFormat = catalog.text("%a %Y-%m-%d", context: "day heading")
        self.init(
            language: catalog.name,
            lookup: { text, context in catalog.text(text, context: context) },
            plural: { one, many, count in catalog.plural(one, many, count: count) },
            dayHeading: { date in
                guard dates.isOpen, let formatted = dates.format(date, headingFormat ?? "%a %Y-%m-%d") else { return DisplayText.dayHeading(date) }
                return formatted
            })
    }

    /// The messages of the environment's language (`LC_ALL`, `LC_MESSAGES`, `LANG`; days by
    /// `LC_TIME`); English for C, POSIX or a locale this machine does not have.
    public init(environment: [String: String]) {
        let locale = LocaleEnvironment(environment)
        guard locale.messages != nil || locale.time != nil else { self = .english; return }
        self.init(catalog: MessageCatalog(locale: locale.messages), time: locale.time.map { MessageCatalog(locale: $0) })
    }
}
