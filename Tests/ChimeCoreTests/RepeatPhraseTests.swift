import Testing
@testable import ChimeCore

/// `--repeat` words: each phrase, the RRULE it stands for, and the words `chime show` says it
/// back with, and whether those words read back as the same rule (where they do, the `$EDITOR`
/// form shows the words; where not, the RRULE).
@Suite("Repeat phrases: daily, weekdays, every 2 weeks on mon,thu, and back")
struct RepeatPhraseTests {
    @Test(arguments: [
        ("daily", "FREQ=DAILY", "daily", true),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday", true),
        ("weekends", "FREQ=WEEKLY;BYDAY=SA,SU", "weekly on Saturday and Sunday", true),
        ("weekly", "FREQ=WEEKLY", "weekly", true),
        ("fortnightly", "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks", true),
        ("monthly", "FREQ=MONTHLY", "monthly", true),
        ("every month", "FREQ=MONTHLY", "monthly", true),
        ("yearly", "FREQ=YEARLY", "yearly", true),
        ("every 2 weeks on mon,thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "every 2 weeks on Monday and Thursday", true),
        ("every 3 days", "FREQ=DAILY;INTERVAL=3", "every 3 days", true),
        ("weekly 10 times", "FREQ=WEEKLY;COUNT=10", "weekly, 10 times", true),
        ("FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR", "monthly on the last Friday", true),
        // What people type (the README itself says "the last Friday of each month").
        ("every other tuesday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "every 2 weeks on Tuesday", true),
        ("every other week", "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks", true),
        ("last friday of the month", "FREQ=MONTHLY;BYDAY=-1FR", "monthly on the last Friday", true),
        ("the last Friday of each month", "FREQ=MONTHLY;BYDAY=-1FR", "monthly on the last Friday", true),
        ("first monday of every month", "FREQ=MONTHLY;BYDAY=1MO", "monthly on the 1st Monday", true),
        ("every month on the 2nd tuesday", "FREQ=MONTHLY;BYDAY=2TU", "monthly on the 2nd Tuesday", true),
        ("monthly on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "monthly on the 15th", true),
        ("on the 1st and 15th of each month", "FREQ=MONTHLY;BYMONTHDAY=1,15", "monthly on the 1st and 15th", true),
        ("weekly until 2027-03-01", "FREQ=WEEKLY;UNTIL=20270301", "weekly, until 2027-03-01", true),
        // One day of the year, either way round, with or without its suffix.
        ("yearly on dec 25", "FREQ=YEARLY;BYMONTHDAY=25;BYMONTH=12", "yearly on December 25", true),
        ("every year on 29 february", "FREQ=YEARLY;BYMONTHDAY=29;BYMONTH=2", "yearly on February 29", true),
        ("annually on march 3rd", "FREQ=YEARLY;BYMONTHDAY=3;BYMONTH=3", "yearly on March 3", true),
        ("every 2 years on jul 4 5 times", "FREQ=YEARLY;COUNT=5;INTERVAL=2;BYMONTHDAY=4;BYMONTH=7", "every 2 years on July 4, 5 times", true),
        ("FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24,25", "FREQ=YEARLY;BYMONTHDAY=24,25;BYMONTH=12", "yearly on the 24th and 25th in December", false)
    ])
    func aPhraseIsARuleAndIsSaidBack(phrase: String, rrule: String, words: String, readsBack: Bool) throws {
        let rule = try RecurrenceRule(phrase: phrase)
        #expect(rule.rfc5545 == rrule)
        #expect(rule.summary == words)
        #expect(((try? RecurrenceRule(phrase: words)) == rule) == readsBack, "\"\(words)\" and \(rrule)")
    }

    @Test(arguments: [
        "every other", "last of the month", "weekly until march", "weekly until 2027-02-30", "every 2 weeks on the 15th",
        "yearly on feb 30", "yearly on dec 25 and jan 1", "monthly on dec 25"
    ])
    func aPhraseThatSaysTooLittleIsRefused(phrase: String) {
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(phrase: phrase) }
    }
}
