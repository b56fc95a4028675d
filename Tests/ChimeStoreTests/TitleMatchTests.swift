import ChimeCore
import ChimeStore
import Testing

/// Titles found as people type them in every script: case (Cyrillic, Greek), accents, full-width
/// forms. SQLite's LIKE folds ASCII only, so `врач` did not find "Врач".
@Suite struct TitleMatchTests {
    @Test func titlesAreFoundWithoutCaseAccentsOrWidth() throws {
        let t = try TestStore()
        let calendar = try t.store.defaultCalendarForNewReminders().identifier
        for title in ["Врач", "Café Lunch", "tea time", "Ωμέγα meeting", "妈妈生日"] {
            _ = try t.store.save(Reminder(title: title, calendar: calendar))
        }
        func found(_ text: String) throws -> [String] { try t.store.items(titleContaining: text).map(\.title) }
        #expect(try found("врач") == ["Врач"])
        #expect(try found("ВРАЧ") == ["Врач"])
        #expect(try found("cafe") == ["Café Lunch"])
        #expect(try found("CAFÉ") == ["Café Lunch"])
        #expect(try found("ｔｅａ") == ["tea time"])
        #expect(try found("ωμεγα") == ["Ωμέγα meeting"])
        #expect(try found("生日") == ["妈妈生日"])
        #expect(try found("%") == [] && found("_") == [], "no SQL pattern characters")
        #expect(TitleMatch.same("ВРАЧ", "врач") && !TitleMatch.same("врач", "врачи"))
    }
}
