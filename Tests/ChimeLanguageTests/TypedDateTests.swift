import ChimeCore
import ChimeLanguage
import ChimeTestSupport
import Foundation
import Testing

/// Dates as people type them in each language, read through the real catalog (gettext, the
/// repository's `.po` compiled by msgfmt) on a pinned clock: Wednesday 2026-12-02 08:00 UTC.
/// Expected: `2026-12-03` a day, `2026-12-03T10:00` a wall time, `@2026-12-02T10:00:00Z` an instant.
@Suite struct TypedDateTests {
    static let now = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z, a Wednesday

    /// How a typed date reads: as English when it reads so, else through the table (as InputContext does).
    static func read(_ text: String, _ phrases: DatePhrases) -> String {
        let english = phrases.english(text) { (try? DateExpression.parse($0, now: now, zone: .utc, numericOrder: .dayFirst)) != nil }
        do {
            switch try DateExpression.parse(english, now: now, zone: .utc, numericOrder: .dayFirst) {
            case .date(let d): return d.description
            case .local(let l): return String(l.description.prefix(16))
            case .instant(let i): return "@\(i)"
            }
        } catch {
            return "error: \(english): \(error)"
        }
    }

    /// English, read the same in every language.
    static let english: [(String, String)] = [
        ("now", "@2026-12-02T08:00:00Z"), ("today", "2026-12-02"), ("tomorrow 10:00", "2026-12-03T10:00"), ("fri 5pm", "2026-12-04T17:00"),
        ("next mon", "2026-12-07"), ("Dec 25", "2026-12-25"), ("9am", "2026-12-02T09:00"), ("9 am", "2026-12-02T09:00"),
        ("in 2h", "@2026-12-02T10:00:00Z"), ("in 2 hours", "@2026-12-02T10:00:00Z"), ("+1h30m", "@2026-12-02T09:30:00Z"),
        ("-30m", "@2026-12-02T07:30:00Z"), ("2026-12-24T18:00", "2026-12-24T18:00"), ("24.12.", "2026-12-24"),
        ("noon", "2026-12-02T12:00"), ("tomorrow at 9", "2026-12-03T09:00"), ("tonight", "2026-12-02T20:00"),
        ("overmorrow", "2026-12-04"), ("next week fri", "2026-12-11"), ("tomorrow afternoon at 3", "2026-12-03T15:00"),
        ("on dec 24", "2026-12-24"), ("on friday at 9", "2026-12-04T09:00")
    ]

    static func check(_ locale: String, _ table: [(String, String)]) {
        let phrases = DatePhrases(catalog: CatalogSandbox.catalog(locale))
        #expect(!phrases.isEmpty, "no date words for \(locale)")
        #expect(table.count >= 40)
        for (typed, expected) in table + english {
            #expect(read(typed, phrases) == expected, "\(locale): \(typed)")
        }
    }

    /// The examples an unreadable date's error shows are themselves read.
    @Test(arguments: CatalogSandbox.locales) func theErrorsExamplesRead(_ locale: String) throws {
        let phrases = DatePhrases(catalog: CatalogSandbox.catalog(locale + ".UTF-8"))
        let examples = try #require(phrases.examples, "\(locale) has no date examples")
        for example in examples.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            #expect(!Self.read(example, phrases).hasPrefix("error"), "\(locale): \(example) → \(Self.read(example, phrases))")
        }
    }

    /// A day and month then a time of day: the hour is not read as a year (it was: `25. Dezember
    /// 18:00` became `december 25 18 :00`, refused). A year is still a year. And `am`, `le`, `el`
    /// before a numeric date.
    @Test(arguments: [
        ("de_DE.UTF-8", "25. Dezember 18:00", "2026-12-25T18:00"), ("de_DE.UTF-8", "25. Dezember 2027", "2027-12-25"),
        ("de_DE.UTF-8", "am 3. Januar 9:30", "2027-01-03T09:30"), ("ru_RU.UTF-8", "25 декабря 18:00", "2026-12-25T18:00"),
        ("ru_RU.UTF-8", "25 декабря 2027", "2027-12-25"), ("fr_FR.UTF-8", "25 décembre 18:00", "2026-12-25T18:00"),
        ("es_ES.UTF-8", "25 de diciembre 18:00", "2026-12-25T18:00"), ("es_ES.UTF-8", "25 de diciembre de 2027", "2027-12-25"),
        // "on" before a numeric date, which only English read
        ("de_DE.UTF-8", "am 24.12. um 18 Uhr", "2026-12-24T18:00"), ("fr_FR.UTF-8", "le 24.12. à 18h", "2026-12-24T18:00"),
        ("es_ES.UTF-8", "el 24.12. a las 18:00", "2026-12-24T18:00")
    ])
    func aDayAndMonthThenATime(_ locale: String, _ typed: String, _ expected: String) {
        #expect(Self.read(typed, DatePhrases(catalog: CatalogSandbox.catalog(locale))) == expected, "\(locale): \(typed)")
    }

    @Test func chinese() {
        Self.check(
            "zh_CN.UTF-8",
            [
                ("现在", "@2026-12-02T08:00:00Z"), ("今天", "2026-12-02"), ("明天", "2026-12-03"), ("后天", "2026-12-04"), ("昨天", "2026-12-01"),
                ("明天 10点", "2026-12-03T10:00"), ("明天10点半", "2026-12-03T10:30"), ("明天上午9点", "2026-12-03T09:00"),
                ("明天下午3点", "2026-12-03T15:00"), ("明天晚上8点", "2026-12-03T20:00"), ("今晚8点", "2026-12-02T20:00"), ("今晚", "2026-12-02T20:00"),
                ("10点", "2026-12-02T10:00"), ("7点", "2026-12-03T07:00"), ("下午2点30分", "2026-12-02T14:30"), ("下午2点15", "2026-12-02T14:15"),
                ("10点一刻", "2026-12-02T10:15"), ("10点三刻", "2026-12-02T10:45"), ("周五", "2026-12-04"), ("星期五", "2026-12-04"),
                ("下周五", "2026-12-11"), ("下星期一", "2026-12-07"), ("下周一 9点", "2026-12-07T09:00"), ("这周五", "2026-12-04"),
                ("本周一", "2026-11-30"), ("下周", "2026-12-07"), ("下个月", "2027-01-01"), ("2小时后", "@2026-12-02T10:00:00Z"),
                ("30分钟后", "@2026-12-02T08:30:00Z"), ("3天后", "@2026-12-05T08:00:00Z"), ("半小时后", "@2026-12-02T08:30:00Z"),
                ("一个小时后", "@2026-12-02T09:00:00Z"), ("2周后", "@2026-12-16T08:00:00Z"), ("12月25日", "2026-12-25"), ("1月5号", "2027-01-05"),
                ("2027年1月5日", "2027-01-05"), ("１２月２５日", "2026-12-25"), ("明天　１０点", "2026-12-03T10:00"), ("后天早上8点", "2026-12-04T08:00"),
                ("星期天", "2026-12-06"), ("礼拜三", "2026-12-02"), ("12月25日 下午6点", "2026-12-25T18:00"), ("下个星期五", "2026-12-11")
            ])
    }

    @Test func japanese() {
        Self.check(
            "ja_JP.UTF-8",
            [
                ("今", "@2026-12-02T08:00:00Z"), ("今日", "2026-12-02"), ("明日", "2026-12-03"), ("明後日", "2026-12-04"), ("あさって", "2026-12-04"),
                ("昨日", "2026-12-01"), ("あした", "2026-12-03"), ("明日 10時", "2026-12-03T10:00"), ("明日の10時", "2026-12-03T10:00"),
                ("明日10時半", "2026-12-03T10:30"), ("明日午前9時", "2026-12-03T09:00"), ("明日午後3時", "2026-12-03T15:00"),
                ("明日の夜8時", "2026-12-03T20:00"), ("今夜", "2026-12-02T20:00"), ("今夜9時", "2026-12-02T21:00"), ("10時", "2026-12-02T10:00"),
                ("7時", "2026-12-03T07:00"), ("午後2時30分", "2026-12-02T14:30"), ("午後2時半", "2026-12-02T14:30"), ("金曜日", "2026-12-04"),
                ("金曜", "2026-12-04"), ("来週の金曜日", "2026-12-11"), ("来週金曜", "2026-12-11"), ("来週の月曜日 9時", "2026-12-07T09:00"),
                ("今週の金曜日", "2026-12-04"), ("今週の月曜", "2026-11-30"), ("来週", "2026-12-07"), ("来月", "2027-01-01"),
                ("2時間後", "@2026-12-02T10:00:00Z"), ("30分後", "@2026-12-02T08:30:00Z"), ("3日後", "@2026-12-05T08:00:00Z"),
                ("2週間後", "@2026-12-16T08:00:00Z"), ("12月25日", "2026-12-25"), ("1月5日", "2027-01-05"), ("2027年1月5日", "2027-01-05"),
                ("１２月２５日", "2026-12-25"), ("明日　１０時", "2026-12-03T10:00"), ("日曜日", "2026-12-06"), ("水曜日", "2026-12-02"),
                ("12月25日 午後6時", "2026-12-25T18:00"), ("明後日の朝8時", "2026-12-04T08:00"), ("本日", "2026-12-02")
            ])
    }

    @Test func russian() {
        Self.check(
            "ru_RU.UTF-8",
            [
                ("сейчас", "@2026-12-02T08:00:00Z"), ("сегодня", "2026-12-02"), ("завтра", "2026-12-03"), ("послезавтра", "2026-12-04"),
                ("вчера", "2026-12-01"), ("завтра в 10:00", "2026-12-03T10:00"), ("завтра в 10", "2026-12-03T10:00"),
                ("завтра в 10 утра", "2026-12-03T10:00"), ("завтра в 3 дня", "2026-12-03T15:00"), ("завтра в 8 вечера", "2026-12-03T20:00"),
                ("сегодня вечером", "2026-12-02T20:00"), ("сегодня в 9 вечера", "2026-12-02T21:00"), ("в 10:00", "2026-12-02T10:00"),
                ("в 7:00", "2026-12-03T07:00"), ("в пятницу", "2026-12-04"), ("пятница", "2026-12-04"), ("в следующую пятницу", "2026-12-11"),
                ("в следующий понедельник", "2026-12-07"), ("в следующий понедельник в 9:00", "2026-12-07T09:00"), ("в эту пятницу", "2026-12-04"),
                ("на следующей неделе", "2026-12-07"), ("в следующем месяце", "2027-01-01"), ("через 2 часа", "@2026-12-02T10:00:00Z"),
                ("через 30 минут", "@2026-12-02T08:30:00Z"), ("через 3 дня", "@2026-12-05T08:00:00Z"), ("через 2 недели", "@2026-12-16T08:00:00Z"),
                ("через час", "@2026-12-02T09:00:00Z"), ("через полчаса", "@2026-12-02T08:30:00Z"), ("через 5 минут", "@2026-12-02T08:05:00Z"),
                ("через 1 день", "@2026-12-03T08:00:00Z"), ("25 декабря", "2026-12-25"), ("5 января", "2027-01-05"), ("5 января 2027", "2027-01-05"),
                ("5 января 2027 года", "2027-01-05"), ("25 декабря в 18:00", "2026-12-25T18:00"), ("во вторник", "2026-12-08"),
                ("в воскресенье", "2026-12-06"), ("в среду", "2026-12-02"), ("ЗАВТРА В 10:00", "2026-12-03T10:00"), ("01.12.", "2026-12-01"),
                ("в полдень", "2026-12-02T12:00"), ("завтра в полдень", "2026-12-03T12:00"), ("через 21 минуту", "@2026-12-02T08:21:00Z")
            ])
    }

    @Test func german() {
        Self.check(
            "de_DE.UTF-8",
            [
                // As the agenda abbreviates the weekdays.
                ("Fr 17 Uhr", "2026-12-04T17:00"), ("Mo. 9 Uhr", "2026-12-07T09:00"), ("So", "2026-12-06"), ("Di 8:30", "2026-12-08T08:30"),
                // A day of a month, then the hour: not a year (`1. März 10` is not the year 10).
                ("1. März 10 Uhr", "2027-03-01T10:00"), ("25. Dezember 10 Uhr", "2026-12-25T10:00"), ("25. Dezember 2027", "2027-12-25"),
                // Without the umlauts a keyboard may lack.
                ("uebermorgen", "2026-12-04"), ("naechsten Freitag", "2026-12-04"), ("1. Maerz", "2027-03-01"),
                ("jetzt", "@2026-12-02T08:00:00Z"), ("heute", "2026-12-02"), ("morgen", "2026-12-03"), ("übermorgen", "2026-12-04"),
                ("gestern", "2026-12-01"), ("morgen um 10 Uhr", "2026-12-03T10:00"), ("morgen 10 Uhr", "2026-12-03T10:00"),
                ("morgen um 10:30", "2026-12-03T10:30"), ("morgen um 10.30 Uhr", "2026-12-03T10:30"), ("morgen früh um 8", "2026-12-03T08:00"),
                ("morgen nachmittag um 3", "2026-12-03T15:00"), ("morgen abend um 8", "2026-12-03T20:00"), ("heute abend", "2026-12-02T20:00"),
                ("heute abend um 9", "2026-12-02T21:00"), ("um 10 Uhr", "2026-12-02T10:00"), ("um 7 Uhr", "2026-12-03T07:00"),
                ("Freitag", "2026-12-04"), ("am Freitag", "2026-12-04"), ("nächsten Freitag", "2026-12-04"), ("nächste Woche Freitag", "2026-12-11"),
                ("nächste Woche Montag um 9", "2026-12-07T09:00"), ("diese Woche Freitag", "2026-12-04"), ("nächste Woche", "2026-12-07"),
                ("nächsten Monat", "2027-01-01"), ("in 2 Stunden", "@2026-12-02T10:00:00Z"), ("in 30 Minuten", "@2026-12-02T08:30:00Z"),
                ("in 3 Tagen", "@2026-12-05T08:00:00Z"), ("in 2 Wochen", "@2026-12-16T08:00:00Z"), ("in einer Stunde", "@2026-12-02T09:00:00Z"),
                ("in einer halben Stunde", "@2026-12-02T08:30:00Z"), ("25. Dezember", "2026-12-25"), ("am 25. Dezember", "2026-12-25"),
                ("5. Januar", "2027-01-05"), ("5. Januar 2027", "2027-01-05"), ("24.12.", "2026-12-24"), ("24.12.2026", "2026-12-24"),
                ("am 25. Dezember um 18 Uhr", "2026-12-25T18:00"), ("Sonntag", "2026-12-06"), ("Mittwoch", "2026-12-02"),
                ("MORGEN UM 10 UHR", "2026-12-03T10:00"), ("übermorgen um 8", "2026-12-04T08:00"), ("am 3. März", "2027-03-03")
            ])
    }

    @Test func french() {
        Self.check(
            "fr_FR.UTF-8",
            [
                // As the agenda abbreviates the weekdays.
                ("ven 17h", "2026-12-04T17:00"), ("lun. 9h", "2026-12-07T09:00"), ("dim", "2026-12-06"),
                ("maintenant", "@2026-12-02T08:00:00Z"), ("aujourd'hui", "2026-12-02"), ("demain", "2026-12-03"), ("après-demain", "2026-12-04"),
                ("hier", "2026-12-01"), ("demain à 10h", "2026-12-03T10:00"), ("demain 10h", "2026-12-03T10:00"), ("demain à 10h30", "2026-12-03T10:30"),
                ("demain à 10 h 30", "2026-12-03T10:30"), ("demain à 9 heures", "2026-12-03T09:00"), ("demain à 3h de l'après-midi", "2026-12-03T15:00"),
                ("demain à 8h du soir", "2026-12-03T20:00"), ("ce soir", "2026-12-02T20:00"), ("ce soir à 21h", "2026-12-02T21:00"),
                ("à 10h", "2026-12-02T10:00"), ("à 7h", "2026-12-03T07:00"), ("vendredi", "2026-12-04"), ("vendredi prochain", "2026-12-04"),
                ("vendredi de la semaine prochaine", "2026-12-11"), ("lundi de la semaine prochaine à 9h", "2026-12-07T09:00"),
                ("vendredi de cette semaine", "2026-12-04"), ("la semaine prochaine", "2026-12-07"), ("le mois prochain", "2027-01-01"),
                ("dans 2 heures", "@2026-12-02T10:00:00Z"), ("dans 30 minutes", "@2026-12-02T08:30:00Z"), ("dans 3 jours", "@2026-12-05T08:00:00Z"),
                ("dans 2 semaines", "@2026-12-16T08:00:00Z"), ("dans une heure", "@2026-12-02T09:00:00Z"), ("dans une demi-heure", "@2026-12-02T08:30:00Z"),
                ("25 décembre", "2026-12-25"), ("le 25 décembre", "2026-12-25"), ("1er janvier", "2027-01-01"), ("5 janvier 2027", "2027-01-05"),
                ("24.12.", "2026-12-24"), ("le 25 décembre à 18h", "2026-12-25T18:00"), ("dimanche", "2026-12-06"), ("mercredi", "2026-12-02"),
                ("DEMAIN À 10H", "2026-12-03T10:00"), ("après-demain à 8h", "2026-12-04T08:00"), ("le 3 mars", "2027-03-03"), ("midi", "2026-12-02T12:00")
            ])
    }

    @Test func spanish() {
        Self.check(
            "es_ES.UTF-8",
            [
                // As the agenda abbreviates the weekdays.
                ("vie 17:00", "2026-12-04T17:00"), ("mié", "2026-12-02"), ("sáb 10:00", "2026-12-05T10:00"),
                ("ahora", "@2026-12-02T08:00:00Z"), ("hoy", "2026-12-02"), ("mañana", "2026-12-03"), ("pasado mañana", "2026-12-04"),
                ("ayer", "2026-12-01"), ("mañana a las 10", "2026-12-03T10:00"), ("mañana a las 10:30", "2026-12-03T10:30"),
                ("mañana a las 10 y media", "2026-12-03T10:30"), ("mañana a las 9 de la mañana", "2026-12-03T09:00"),
                ("mañana a las 3 de la tarde", "2026-12-03T15:00"), ("mañana a las 8 de la noche", "2026-12-03T20:00"), ("esta noche", "2026-12-02T20:00"),
                ("esta noche a las 9", "2026-12-02T21:00"), ("a las 10", "2026-12-02T10:00"), ("a las 7", "2026-12-03T07:00"), ("viernes", "2026-12-04"),
                ("el viernes", "2026-12-04"), ("el próximo viernes", "2026-12-04"), ("el viernes de la semana que viene", "2026-12-11"),
                ("la próxima semana", "2026-12-07"), ("el próximo mes", "2027-01-01"), ("en 2 horas", "@2026-12-02T10:00:00Z"),
                ("dentro de 2 horas", "@2026-12-02T10:00:00Z"), ("en 30 minutos", "@2026-12-02T08:30:00Z"), ("en 3 días", "@2026-12-05T08:00:00Z"),
                ("en 2 semanas", "@2026-12-16T08:00:00Z"), ("en una hora", "@2026-12-02T09:00:00Z"), ("en media hora", "@2026-12-02T08:30:00Z"),
                ("25 de diciembre", "2026-12-25"), ("el 25 de diciembre", "2026-12-25"), ("5 de enero", "2027-01-05"), ("5 de enero de 2027", "2027-01-05"),
                ("24.12.", "2026-12-24"), ("el 25 de diciembre a las 18:00", "2026-12-25T18:00"), ("domingo", "2026-12-06"), ("miércoles", "2026-12-02"),
                ("MAÑANA A LAS 10", "2026-12-03T10:00"), ("pasado mañana a las 8", "2026-12-04T08:00"), ("el 3 de marzo", "2027-03-03"),
                ("mediodía", "2026-12-02T12:00"), ("a las 10 y cuarto", "2026-12-02T10:15")
            ])
    }
}
