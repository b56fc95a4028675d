import ChimeCore
import Testing

@testable import ChimeICS

/// The reader's shortcuts answer as the slower ways they replace: a rule found already normal
/// (``RRuleRepair/isAlreadyNormal(_:)``), a property name looked up by length
/// (``PropertyNameSet``), one look at a VALARM's ACTION (``AlarmReader/Verdict``).
@Suite("iCalendar reading shortcuts")
struct ReadingShortcutsTests {
    static let rules = [
        "FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=DAILY;COUNT=10", "FREQ=DAILY;COUNT=0", "FREQ=DAILY;COUNT=-1",
        "FREQ=DAILY;COUNT=+5", "FREQ=DAILY;COUNT=007", "FREQ=DAILY;COUNT=", "FREQ=DAILY;COUNT=99999999999999999999999",
        "FREQ=DAILY;UNTIL=20270101T000000Z", "FREQ=DAILY;UNTIL=20270101T000000Z;COUNT=3", "FREQ=DAILY;COUNT=3;UNTIL=20270101",
        "freq=weekly", "FREQ=WEEKLY; BYDAY=MO", "FREQ=WEEKLY;\tBYDAY=MO", "FREQ=WEEKLY\\;BYDAY=MO", "RRULE:FREQ=DAILY",
        "rrule:FREQ=DAILY", "FREQ=DAILY;", ";FREQ=DAILY", "FREQ=DAILY;;INTERVAL=2", "", ";", ";;",
        "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8L;SKIP=FORWARD", "FREQ=MONTHLY;SKIP=BACKWARD", "FREQ=YEARLY;BYMONTH=ÄÖ",
        "FREQ=MONTHLY;BYMONTHDAY=10,-1", "X-NAME=VALUE;FREQ=DAILY", "FREQ=DAILY;X-SKIP=1"
    ]

    @Test func aRuleFoundNormalIsOneTheRepairsLeaveAsItIs() {
        var normal = 0
        for rule in Self.rules {
            let repaired = RRuleRepair.repaired(rule)
            let unchanged = repaired.text == rule && repaired.changes.isEmpty
            if RRuleRepair.isAlreadyNormal(rule) {
                normal += 1
                #expect(unchanged, "\(rule)")
            }
            let normalized = RRuleRepair.normalize(rule)
            #expect(normalized.text == repaired.text, "\(rule)")
            #expect(normalized.changes.map(\.template) == repaired.changes.map(\.template), "\(rule)")
        }
        // The shortcut is taken where it should be, not never.
        #expect(normal >= 8)
        #expect(RRuleRepair.isAlreadyNormal("FREQ=WEEKLY;BYDAY=MO,TH"))
        #expect(RRuleRepair.isAlreadyNormal("FREQ=DAILY;COUNT=10"))
        #expect(!RRuleRepair.isAlreadyNormal("FREQ=DAILY;COUNT=0"))
    }

    @Test func aPropertyNameSetAnswersAsASetOfStrings() {
        let known = ["UID", "SUMMARY", "DTSTART", "DTEND", "RECURRENCE-ID", "DUE", "URL", "RRULE", "RDATE"]
        let names = PropertyNameSet(known)
        let asked = known + ["", "X", "UIDS", "SUMMARI", "SUMMARİ", "summary", "DTSTAR", "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR", "RECURRENCE-IDX"]
        for name in asked {
            #expect(names.contains(name) == Set(known).contains(name), "\(name)")
        }
    }

    @Test func oneLookAtAVALARMsActionAnswersEachQuestion() {
        func valarm(_ lines: [(String, String)]) -> ICSComponent {
            ICSComponent(name: "VALARM", properties: lines.enumerated().map { ICSProperty(name: $1.0, value: $1.1, line: 10 + $0) })
        }
        let trigger = ("TRIGGER", "-PT10M")
        let placeholder = ("TRIGGER", "19760401T005545Z")
        // (lines, kept verbatim, meant as an alarm, warned about)
        let cases: [([(String, String)], Bool, Bool, Bool)] = [
            ([("ACTION", "DISPLAY"), trigger], false, true, false),
            ([("ACTION", " audio\t"), trigger], false, true, false),
            ([trigger], false, true, false),
            ([("ACTION", "NONE"), placeholder], true, true, false),
            ([("ACTION", "none"), trigger], true, true, false),
            ([("ACTION", "DISPLAY"), placeholder], true, true, false),
            ([("ACTION", "DISPLAY"), placeholder, ("X-APPLE-PROXIMITY", "ARRIVE")], false, true, false),
            ([("ACTION", "EMAIL"), trigger], true, false, false),
            ([("ACTION", " Email "), trigger], true, false, false),
            ([("ACTION", "PROCEDURE"), trigger], true, false, true),
            ([("ACTION", "X-SPEAK"), trigger], true, false, true),
            ([("ACTION", ""), trigger], true, false, true),
            // Non-ASCII letters: upper-cased as the keyword tests always did.
            ([("ACTION", "emaıl"), trigger], true, false, false),
            ([("ACTION", "DİSPLAY"), trigger], true, false, true),
            ([("ACTION", "AUDIO"), placeholder], true, true, false),
            ([("ACTION", "AUDIO"), placeholder, ("PROXIMITY", "ARRIVE")], false, true, false)
        ]
        for (lines, kept, meant, warned) in cases {
            let verdict = AlarmReader.Verdict(valarm(lines))
            #expect(verdict.isKeptVerbatim == kept, "\(lines)")
            #expect(verdict.isMeantAsAlarm == meant, "\(lines)")
            #expect((verdict.unshownWarning != nil) == warned, "\(lines)")
        }
        let command = AlarmReader.Verdict(valarm([trigger, ("ACTION", "procedure")]))
        #expect(command.unshownWarning?.line == 11)
        #expect(command.unshownWarning?.message.hasPrefix("procedure is a command alarm") == true)
    }
}
