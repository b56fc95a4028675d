import ChimeCore
import Testing

/// The phrase matcher on its own (the real tables are tested through the catalogs in ChimeLanguageTests).
@Suite struct DatePhrasesTests {
    static let table = DatePhrases([
        "tomorrow": "明天|mañana", "{1}:30": "{n}点半", "{1}:{2}": "{n}点{n}分|{n}h{n}", "in {1} hours": "через {n} час(а|ов|)",
        "march": "marzo|mar", "friday": "(周|星期)五|viernes", "next week {weekday}": "下{weekday}", "{1:month} {2}": "{n}月{n}日",
        "at": "a las", "bad": "(unclosed"
    ])

    @Test func phrasesBecomeEnglish() {
        let t = Self.table
        #expect(t.rewrite("明天 10点半") == "tomorrow 10:30")
        #expect(t.rewrite("明天10点5分") == "tomorrow 10:05")
        #expect(t.rewrite("через 2 часа") == "in 2 hours")
        #expect(t.rewrite("через 5 часов") == "in 5 hours")
        #expect(t.rewrite("下周五") == "next week friday", "the longest match wins over 周五")
        #expect(t.rewrite("１２月２５日") == "december 25", "full-width digits fold")
        #expect(t.rewrite("Mañana a las 9") == "tomorrow at 9", "letters compare without case")
    }

    @Test func aMatchNeverStartsOrEndsInsideAWord() {
        let t = Self.table
        #expect(t.rewrite("marzo") == "march")
        #expect(t.rewrite("mars") == "mars", "mar is not found inside mars")
        #expect(t.rewrite("+1h30m") == "+1h30m", "10h30 is a time; 1h30 inside 1h30m is not")
        #expect(t.rewrite("viernesx") == "viernesx")
        let dated = DatePhrases(["{month} {1}": "{n}. {month}", "{month} {1} {2}": "{n}. {month} {n}", "december": "dezember"])
        #expect(dated.rewrite("25. Dezember 18:00") == "december 25 18:00", "18 goes on as a time: not a year")
        #expect(dated.rewrite("25. Dezember 2027") == "december 25 2027")
    }

    @Test func englishAndBrokenEntriesAreLeftAlone() {
        #expect(Self.table.rewrite("tomorrow 9am") == "tomorrow 9am")
        #expect(Self.table.rewrite("(unclosed") == "(unclosed", "a malformed pattern is left out, not matched literally")
        #expect(DatePhrases.none.rewrite("Tomorrow") == "tomorrow")
    }

    /// A word typed without its accents, as a keyboard without them types it, is still the word;
    /// a different word is not.
    @Test func aWordTypedWithoutItsAccentsIsRead() {
        let t = DatePhrases([
            "tomorrow": "mañana", "march": "märz", "next {weekday}": "nächsten {weekday}", "monday": "montag", "february": "février", "until": "jusqu’au"
        ])
        #expect(t.rewrite("manana") == "tomorrow")
        #expect(t.rewrite("Maerz") == "march" && t.rewrite("marz") == "march")
        #expect(t.rewrite("naechsten Montag") == "next monday")
        #expect(t.rewrite("fevrier") == "february")
        #expect(t.rewrite("jusqu'au") == "until")
        #expect(t.rewrite("mayana") == "mayana" && t.rewrite("maeerz") == "maeerz")
    }
}
