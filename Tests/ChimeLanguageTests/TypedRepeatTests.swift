import ChimeCore
import ChimeLanguage
import ChimeTestSupport
import Testing

/// `--repeat` as people say it in each language, through the real catalogs: the RRULE it makes.
@Suite struct TypedRepeatTests {
    static func rule(_ text: String, _ phrases: DatePhrases) -> String {
        let english = phrases.english(text) { (try? RecurrenceRule(phrase: $0)) != nil }
        do { return try RecurrenceRule(phrase: english).rfc5545 } catch { return "error: \(english): \(error)" }
    }

    static func check(_ locale: String, _ table: [(String, String)]) {
        let phrases = DatePhrases(repeatsIn: CatalogSandbox.catalog(locale))
        #expect(!phrases.isEmpty)
        for (typed, expected) in table + [
            ("weekly", "FREQ=WEEKLY"), ("every 2 weeks on mon,thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
            ("monthly on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15"), ("2nd tuesday of the month", "FREQ=MONTHLY;BYDAY=2TU"),
            ("yearly on the chinese calendar", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
        ] {
            #expect(rule(typed, phrases) == expected, "\(locale): \(typed)")
        }
    }

    @Test func everyLanguage() {
        Self.check(
            "zh_CN.UTF-8",
            [
                ("每天", "FREQ=DAILY"), ("每周", "FREQ=WEEKLY"), ("每月", "FREQ=MONTHLY"), ("每年", "FREQ=YEARLY"),
                ("工作日", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("每周一", "FREQ=WEEKLY;BYDAY=MO"), ("每个星期五", "FREQ=WEEKLY;BYDAY=FR"),
                ("每3天", "FREQ=DAILY;INTERVAL=3"), ("每2周", "FREQ=WEEKLY;INTERVAL=2"), ("每周 共10次", "FREQ=WEEKLY;COUNT=10"),
                ("农历每年", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"), ("每年农历", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
                ("每周一和周四", "FREQ=WEEKLY;BYDAY=MO,TH"), ("隔周", "FREQ=WEEKLY;INTERVAL=2"),
                ("每月15号", "FREQ=MONTHLY;BYMONTHDAY=15"), ("每月第二个周二", "FREQ=MONTHLY;BYDAY=2TU"), ("每月最后一个周五", "FREQ=MONTHLY;BYDAY=-1FR"),
                ("每周一、周四", "FREQ=WEEKLY;BYDAY=MO,TH"), ("每周一、三、五", "FREQ=WEEKLY;BYDAY=MO,WE,FR"), ("每周二和四", "FREQ=WEEKLY;BYDAY=TU,TH")
            ])
        Self.check(
            "ja_JP.UTF-8",
            [
                ("毎日", "FREQ=DAILY"), ("毎週", "FREQ=WEEKLY"), ("毎月", "FREQ=MONTHLY"), ("毎年", "FREQ=YEARLY"),
                ("平日", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("毎週月曜日", "FREQ=WEEKLY;BYDAY=MO"), ("隔週金曜", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
                ("3日ごと", "FREQ=DAILY;INTERVAL=3"), ("毎週 10回", "FREQ=WEEKLY;COUNT=10"), ("旧暦で毎年", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
                ("隔週", "FREQ=WEEKLY;INTERVAL=2"), ("毎週月曜日と木曜日", "FREQ=WEEKLY;BYDAY=MO,TH"),
                ("毎月15日", "FREQ=MONTHLY;BYMONTHDAY=15"), ("毎月第2火曜日", "FREQ=MONTHLY;BYDAY=2TU"), ("毎月最終金曜日", "FREQ=MONTHLY;BYDAY=-1FR"),
                ("毎週月・木", "FREQ=WEEKLY;BYDAY=MO,TH"), ("毎週火", "FREQ=WEEKLY;BYDAY=TU")
            ])
        Self.check(
            "ru_RU.UTF-8",
            [
                ("ежедневно", "FREQ=DAILY"), ("каждую неделю", "FREQ=WEEKLY"), ("ежемесячно", "FREQ=MONTHLY"),
                ("каждый год", "FREQ=YEARLY"), ("по будням", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
                ("каждый понедельник", "FREQ=WEEKLY;BYDAY=MO"), ("каждую пятницу", "FREQ=WEEKLY;BYDAY=FR"),
                ("каждые 3 дня", "FREQ=DAILY;INTERVAL=3"), ("каждые 2 недели", "FREQ=WEEKLY;INTERVAL=2"),
                ("еженедельно 10 раз", "FREQ=WEEKLY;COUNT=10"),
                ("каждый год по китайскому календарю", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
                ("ежегодно по еврейскому календарю", "RSCALE=HEBREW;FREQ=YEARLY;SKIP=BACKWARD"),
                ("каждый понедельник и четверг", "FREQ=WEEKLY;BYDAY=MO,TH"), ("раз в две недели", "FREQ=WEEKLY;INTERVAL=2"),
                ("ежемесячно 15 числа", "FREQ=MONTHLY;BYMONTHDAY=15"), ("каждый второй вторник месяца", "FREQ=MONTHLY;BYDAY=2TU"),
                ("в последнюю пятницу месяца", "FREQ=MONTHLY;BYDAY=-1FR"), ("по понедельникам и четвергам", "FREQ=WEEKLY;BYDAY=MO,TH"),
                ("с понедельника по пятницу", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("с пн по пт", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
            ])
        Self.check(
            "de_DE.UTF-8",
            [
                ("täglich", "FREQ=DAILY"), ("wöchentlich", "FREQ=WEEKLY"), ("monatlich", "FREQ=MONTHLY"), ("jährlich", "FREQ=YEARLY"),
                ("werktags", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("jeden Montag", "FREQ=WEEKLY;BYDAY=MO"), ("montags", "FREQ=WEEKLY;BYDAY=MO"),
                ("jeden zweiten Freitag", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"), ("alle 3 Tage", "FREQ=DAILY;INTERVAL=3"),
                ("wöchentlich 10 mal", "FREQ=WEEKLY;COUNT=10"),
                ("jährlich nach dem jüdischen Kalender", "RSCALE=HEBREW;FREQ=YEARLY;SKIP=BACKWARD"),
                ("jeden Montag und Donnerstag", "FREQ=WEEKLY;BYDAY=MO,TH"), ("jeden Montag, Mittwoch und Freitag", "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
                ("jede zweite Woche", "FREQ=WEEKLY;INTERVAL=2"), ("montags und donnerstags", "FREQ=WEEKLY;BYDAY=MO,TH"),
                ("monatlich am 15.", "FREQ=MONTHLY;BYMONTHDAY=15"), ("jeden Monat am 15", "FREQ=MONTHLY;BYMONTHDAY=15"),
                ("am zweiten Dienstag im Monat", "FREQ=MONTHLY;BYDAY=2TU"), ("monatlich am 2. Dienstag", "FREQ=MONTHLY;BYDAY=2TU"),
                ("letzten Freitag im Monat", "FREQ=MONTHLY;BYDAY=-1FR"), ("Mo-Fr", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("14-tägig", "FREQ=WEEKLY;INTERVAL=2"),
                ("woechentlich", "FREQ=WEEKLY"), ("taeglich", "FREQ=DAILY"), ("jaehrlich", "FREQ=YEARLY")
            ])
        Self.check(
            "fr_FR.UTF-8",
            [
                ("tous les jours", "FREQ=DAILY"), ("chaque semaine", "FREQ=WEEKLY"), ("tous les mois", "FREQ=MONTHLY"),
                ("tous les ans", "FREQ=YEARLY"), ("en semaine", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("chaque lundi", "FREQ=WEEKLY;BYDAY=MO"),
                ("tous les lundis", "FREQ=WEEKLY;BYDAY=MO"), ("un vendredi sur deux", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
                ("tous les 3 jours", "FREQ=DAILY;INTERVAL=3"), ("chaque semaine 10 fois", "FREQ=WEEKLY;COUNT=10"),
                ("tous les ans selon le calendrier chinois", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
                ("chaque lundi et jeudi", "FREQ=WEEKLY;BYDAY=MO,TH"), ("une semaine sur deux", "FREQ=WEEKLY;INTERVAL=2"),
                ("le 15 de chaque mois", "FREQ=MONTHLY;BYMONTHDAY=15"), ("le deuxième mardi du mois", "FREQ=MONTHLY;BYDAY=2TU"),
                ("le dernier vendredi du mois", "FREQ=MONTHLY;BYDAY=-1FR"), ("tous les lundis et jeudis", "FREQ=WEEKLY;BYDAY=MO,TH"),
                ("hebdomadaire", "FREQ=WEEKLY")
            ])
        Self.check(
            "es_ES.UTF-8",
            [
                ("todos los días", "FREQ=DAILY"), ("cada semana", "FREQ=WEEKLY"), ("cada mes", "FREQ=MONTHLY"),
                ("cada año", "FREQ=YEARLY"), ("entre semana", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("todos los lunes", "FREQ=WEEKLY;BYDAY=MO"),
                ("cada viernes", "FREQ=WEEKLY;BYDAY=FR"), ("cada 3 días", "FREQ=DAILY;INTERVAL=3"),
                ("cada 2 semanas", "FREQ=WEEKLY;INTERVAL=2"), ("cada semana 10 veces", "FREQ=WEEKLY;COUNT=10"),
                ("cada año según el calendario hebreo", "RSCALE=HEBREW;FREQ=YEARLY;SKIP=BACKWARD"),
                ("todos los lunes y jueves", "FREQ=WEEKLY;BYDAY=MO,TH"), ("cada dos semanas", "FREQ=WEEKLY;INTERVAL=2"),
                ("el 15 de cada mes", "FREQ=MONTHLY;BYMONTHDAY=15"), ("el segundo martes de cada mes", "FREQ=MONTHLY;BYDAY=2TU"),
                ("el último viernes del mes", "FREQ=MONTHLY;BYDAY=-1FR"), ("los lunes y jueves", "FREQ=WEEKLY;BYDAY=MO,TH"), ("semanal", "FREQ=WEEKLY"),
                ("días laborables", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("cada ano", "FREQ=YEARLY"),
                ("el ultimo viernes del mes", "FREQ=MONTHLY;BYDAY=-1FR")
            ])
    }

    /// The examples a refused repeat gives are repeats the language's table reads, each of them.
    @Test(arguments: ["de_DE.UTF-8", "fr_FR.UTF-8", "es_ES.UTF-8", "ru_RU.UTF-8", "zh_CN.UTF-8", "ja_JP.UTF-8"])
    func theExamplesARefusedRepeatGivesAreRead(_ locale: String) throws {
        let phrases = DatePhrases(repeatsIn: CatalogSandbox.catalog(locale))
        let examples = try #require(phrases.examples, "\(locale) has no repeat examples")
        let typed = examples.split(separator: ", ").map(String.init)
        #expect(typed.count == 5)
        for text in typed.dropLast() { #expect(!Self.rule(text, phrases).hasPrefix("error"), "\(locale): \(text): \(Self.rule(text, phrases))") }
        // The last ends on a day: split at the language's "until", the repeat before it reads.
        let last = try #require(phrases.split(typed.last!, atLast: "until"), "\(locale): \(typed.last!)")
        let repeatPart = last.after.isEmpty ? String(last.before.prefix(2)) : last.before
        #expect(Self.rule(repeatPart, phrases) == "FREQ=WEEKLY", "\(locale): \(last)")
    }

    /// A repeat's `until` found in the language's words, with what comes before and after it as
    /// typed (the date is then read by the date table, not the repeat table).
    @Test(arguments: [
        ("de_DE.UTF-8", "wöchentlich bis 1. März 2027", "wöchentlich", "1. märz 2027"),
        ("de_DE.UTF-8", "jeden Montag bis nächsten Freitag", "jeden montag", "nächsten freitag"),
        ("ru_RU.UTF-8", "еженедельно до 1 марта", "еженедельно", "1 марта"),
        ("fr_FR.UTF-8", "chaque lundi jusqu'au 1 mars", "chaque lundi", "1 mars"),
        ("es_ES.UTF-8", "cada lunes hasta el 1 de marzo", "cada lunes", "1 de marzo"),
        ("zh_CN.UTF-8", "每周直到2027年3月1日", "每周", "2027年3月1日"),
        ("ja_JP.UTF-8", "毎週2027年3月1日まで", "毎週2027年3月1日", ""),
        ("zh_CN.UTF-8", "每周一到2027年3月1日为止", "每周一到2027年3月1日", ""),
        ("fr_FR.UTF-8", "chaque lundi jusqu’au 1 mars", "chaque lundi", "1 mars")
    ])
    func untilSplitsARepeatFromItsLastDay(_ locale: String, _ typed: String, _ before: String, _ after: String) throws {
        let phrases = DatePhrases(repeatsIn: CatalogSandbox.catalog(locale))
        let split = try #require(phrases.split(typed, atLast: "until"), "\(locale): \(typed)")
        #expect(split.before == before && split.after == after, "\(locale): \(split)")
        #expect(phrases.split("weekly", atLast: "until") == nil)
    }
}
