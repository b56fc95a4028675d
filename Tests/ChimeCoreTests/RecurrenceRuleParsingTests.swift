import Testing
@testable import ChimeCore
import ChimeTestSupport
import LibicalShim

/// RRULE text in and out (RFC 5545 §3.3.10): every part, canonical formatting, round trips over
/// seeded random rules, the exact error for each kind of bad input, and a crash-free fuzz loop.
@Suite("RRULE parsing and formatting")
struct RecurrenceRuleParsingTests {
    static let baseSeed = TestSeed.base(0x5EED_0001)

    // MARK: - Round trips

    @Test("parse(format(rule)) == rule, and format is canonical, for 3,000 random rules")
    func roundTripRandomRules() throws {
        var generator = RandomRuleGenerator(seed: Self.baseSeed)
        for i in 0..<3_000 {
            let rule = generator.rule()
            let text = rule.rfc5545
            let parsed = try RecurrenceRule(parsing: text)
            #expect(parsed == rule, "rule #\(i) (generator seed \(Self.baseSeed)): \(text) parsed as \(parsed.rfc5545)")
            #expect(parsed.rfc5545 == text, "rule #\(i) (generator seed \(Self.baseSeed)): format is not idempotent")
            #expect(rule.description == text)
        }
        #expect(generator.rejected.isEmpty, "the generator made invalid rules: \(generator.rejected.prefix(5))")
    }

    @Test("Non-canonical spellings (order, case, prefix, repeats, INTERVAL=1) parse to the same rule")
    func nonCanonicalSpellings() throws {
        var generator = RandomRuleGenerator(seed: Self.baseSeed ^ 0xABCD)
        var random = SeededRandom(seed: Self.baseSeed ^ 0x1234)
        for i in 0..<2_000 {
            let rule = generator.rule()
            var parts = rule.rfc5545.split(separator: ";").map { part -> String in
                let (name, value) = (part.prefix { $0 != "=" }, part.drop { $0 != "=" }.dropFirst())
                var items = value.split(separator: ",").map(String.init)
                if items.count > 1 { items.append(random.pick(items)) }  // a repeated value
                items.reverse()
                return String(name) + "=" + items.joined(separator: ",")
            }
            if rule.interval == 1 && random.chance(0.3) { parts.append("INTERVAL=1") }
            for j in stride(from: parts.count - 1, to: 0, by: -1) { parts.swapAt(j, random.int(in: 0...j)) }
            var text = parts.joined(separator: ";")
            if random.chance(0.3) { text = text.lowercased() }
            if random.chance(0.3) { text = (random.chance(0.5) ? "RRULE:" : "rrule:") + text }
            if random.chance(0.2) { text += ";" }
            let parsed = try RecurrenceRule(parsing: text)
            #expect(parsed == rule, "#\(i) (seed \(Self.baseSeed ^ 0xABCD)): \(text) is not \(rule.rfc5545)")
        }
    }

    // MARK: - Every part

    @Test(
        "Each rule part is read into the model",
        arguments: [
            ("FREQ=SECONDLY", "FREQ=SECONDLY"),
            ("FREQ=MINUTELY;INTERVAL=15", "FREQ=MINUTELY;INTERVAL=15"),
            ("FREQ=HOURLY;BYHOUR=23,9,9;BYMINUTE=0,30;BYSECOND=0,60", "FREQ=HOURLY;BYSECOND=0,60;BYMINUTE=0,30;BYHOUR=9,23"),
            ("FREQ=DAILY;COUNT=10", "FREQ=DAILY;COUNT=10"),
            ("FREQ=DAILY;UNTIL=19971224T000000Z", "FREQ=DAILY;UNTIL=19971224T000000Z"),
            ("FREQ=DAILY;UNTIL=19971224T090000", "FREQ=DAILY;UNTIL=19971224T090000"),
            ("FREQ=DAILY;UNTIL=19971224", "FREQ=DAILY;UNTIL=19971224"),
            ("FREQ=WEEKLY;BYDAY=TU,TH;WKST=SU", "FREQ=WEEKLY;BYDAY=TU,TH;WKST=SU"),
            ("FREQ=MONTHLY;BYDAY=-1FR,+2MO,1TU", "FREQ=MONTHLY;BYDAY=-1FR,1TU,2MO"),
            ("FREQ=MONTHLY;BYMONTHDAY=-1,1,+15", "FREQ=MONTHLY;BYMONTHDAY=-1,1,15"),
            ("FREQ=YEARLY;BYYEARDAY=1,100,-366", "FREQ=YEARLY;BYYEARDAY=-366,1,100"),
            ("FREQ=YEARLY;BYWEEKNO=20,-1;BYDAY=MO", "FREQ=YEARLY;BYDAY=MO;BYWEEKNO=-1,20"),
            ("FREQ=YEARLY;BYMONTH=3,1;BYDAY=20MO,-53SU", "FREQ=YEARLY;BYDAY=-53SU,20MO;BYMONTH=1,3"),
            ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,1", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,1")
        ])
    func everyPart(text: String, canonical: String) throws {
        let rule = try RecurrenceRule(parsing: text)
        #expect(rule.rfc5545 == canonical)
    }

    @Test("Parts land in the right fields")
    func fields() throws {
        let r = try RecurrenceRule(parsing: "FREQ=YEARLY;INTERVAL=2;COUNT=5;BYMONTH=1,2;BYDAY=-1SU,MO;BYHOUR=8;BYMINUTE=30;BYSECOND=15;BYSETPOS=2;WKST=SU")
        #expect(r.frequency == .yearly && r.interval == 2 && r.end == .count(5))
        #expect(r.monthsOfTheYear == [1, 2] && r.byHour == [8] && r.byMinute == [30] && r.bySecond == [15])
        #expect(r.daysOfTheWeek == [RecurrenceDayOfWeek(.sunday, weekNumber: -1), RecurrenceDayOfWeek(.monday)])
        #expect(r.setPositions == [2] && r.firstDayOfTheWeek == .sunday && r.weekStart == .sunday)
        let u = try RecurrenceRule(parsing: "FREQ=HOURLY;UNTIL=19970902T170000Z;BYMONTHDAY=-31;BYYEARDAY=-1")
        #expect(u.end == .until(.utc(Instant(secondsSince1970: 873_219_600))))
        #expect(u.daysOfTheMonth == [-31] && u.daysOfTheYear == [-1] && u.firstDayOfTheWeek == nil && u.weekStart == .monday)
        let d = try RecurrenceRule(parsing: "FREQ=YEARLY;UNTIL=20000229;BYWEEKNO=53")
        #expect(d.end == .until(.date(CivilDate(year: 2000, month: 2, day: 29))) && d.weeksOfTheYear == [53])
        #expect(
            try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20261231T235960").end
                == .until(.local(LocalDateTime(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59))))
    }

    @Test("Names and values are case-insensitive; RRULE: prefix and spaces around are accepted")
    func caseAndPrefix() throws {
        let canonical = try RecurrenceRule(parsing: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=-1FR,2MO;WKST=SU")
        for text in [
            "freq=monthly;until=19971224t000000z;byday=-1fr,2mo;wkst=su",
            "Freq=Monthly;Until=19971224T000000z;ByDay=2Mo,-1fR;WkSt=Su",
            "RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=-1FR,2MO;WKST=SU",
            "rrule:FREQ=MONTHLY;BYDAY=-1FR,2MO;WKST=SU;UNTIL=19971224T000000Z;",
            "  RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=-1FR,2MO;WKST=SU \n"
        ] {
            #expect(try RecurrenceRule(parsing: text) == canonical, "\(text)")
        }
    }

    @Test("The EventKit-shaped initialisers validate like the parser")
    func initialisers() throws {
        let weekly = try RecurrenceRule(.weekly, interval: 2, end: .count(10))
        #expect(weekly.rfc5545 == "FREQ=WEEKLY;COUNT=10;INTERVAL=2")
        let lastWeekday = try RecurrenceRule(
            .monthly, daysOfTheWeek: [.init(.friday), .init(.monday), .init(.monday)],
            setPositions: [-1])
        #expect(lastWeekday.rfc5545 == "FREQ=MONTHLY;BYDAY=MO,FR;BYSETPOS=-1")
        #expect(throws: RecurrenceRuleError.invalidValue(part: "INTERVAL", value: "0", expected: "must be a positive integer (1 or more)")) {
            try RecurrenceRule(.daily, interval: 0)
        }
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(.weekly, weeksOfTheYear: [1]) }
    }

    // MARK: - Errors

    @Test(
        "Bad rules are refused with a message naming the part and value",
        arguments: [
            ("FREQ=DAILY;COUNT=3;UNTIL=19971224T000000Z", "COUNT and UNTIL cannot both be given (RFC 5545 §3.3.10)"),
            ("FREQ=MONTHLY;BYWEEKNO=20", "BYWEEKNO=20: allowed only in YEARLY rules, not MONTHLY"),
            ("FREQ=WEEKLY;BYDAY=2MO", "BYDAY=2MO: an ordinal weekday is allowed only in MONTHLY and YEARLY rules, not WEEKLY"),
            ("FREQ=DAILY;BYDAY=-1FR", "BYDAY=-1FR: an ordinal weekday is allowed only in MONTHLY and YEARLY rules, not DAILY"),
            ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY=6MO: in a MONTHLY rule the ordinal must be -5…-1 or 1…5"),
            ("FREQ=YEARLY;BYDAY=54MO", "BYDAY=54MO: the ordinal must be -53…-1 or 1…53"),
            ("FREQ=YEARLY;BYDAY=0MO", "BYDAY=0MO: the week ordinal cannot be 0"),
            ("FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO", "BYDAY=1MO: an ordinal weekday cannot be combined with BYWEEKNO"),
            ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY=0: values must be -31…-1 or 1…31"),
            ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY=32: values must be -31…-1 or 1…31"),
            ("FREQ=MONTHLY;BYMONTHDAY=-32", "BYMONTHDAY=-32: values must be -31…-1 or 1…31"),
            ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY=1: not allowed in WEEKLY rules"),
            ("FREQ=YEARLY;BYYEARDAY=367", "BYYEARDAY=367: values must be -366…-1 or 1…366"),
            ("FREQ=MONTHLY;BYYEARDAY=1", "BYYEARDAY=1: not allowed in MONTHLY rules"),
            ("FREQ=YEARLY;BYWEEKNO=54", "BYWEEKNO=54: values must be -53…-1 or 1…53"),
            ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS=0: values must be -366…-1 or 1…366"),
            ("FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS=1: needs another BYxxx part to select from"),
            ("FREQ=DAILY;BYHOUR=24", "BYHOUR=24: values must be 0…23"),
            ("FREQ=DAILY;BYMINUTE=60", "BYMINUTE=60: values must be 0…59"),
            ("FREQ=DAILY;BYSECOND=61", "BYSECOND=61: values must be 0…60"),
            ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13: values must be 1…12"),
            ("FREQ=YEARLY;BYMONTH=0", "BYMONTH=0: values must be 1…12"),
            ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0: must be a positive integer (1 or more)"),
            ("FREQ=DAILY;INTERVAL=-2", "INTERVAL=-2: must be a positive integer (1 or more)"),
            ("FREQ=DAILY;COUNT=0", "COUNT=0: must be a positive integer (1 or more)"),
            ("FREQ=DAILY;FOO=1", "FOO: unknown rule part"),
            ("FREQ=DAILY;FREQ=WEEKLY", "FREQ: given more than once"),
            ("FREQ=DAILY;BYDAY=MO;byday=TU", "BYDAY: given more than once"),
            ("COUNT=3;BYDAY=MO", "FREQ is required (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)"),
            ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY: must be SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY"),
            ("FREQ=DAILY;WKST=XX", "WKST=XX: must be one of MO, TU, WE, TH, FR, SA, SU"),
            ("FREQ=DAILY;UNTIL=19970230", "UNTIL=19970230: expected a date YYYYMMDD or a date-time YYYYMMDDTHHMMSS[Z]"),
            ("FREQ=DAILY;UNTIL=19970101T240000Z", "UNTIL=19970101T240000Z: expected a date YYYYMMDD or a date-time YYYYMMDDTHHMMSS[Z]"),
            ("hello", "\"hello\": expected NAME=VALUE"),
            ("", "\"\": empty rule"),
            ("RRULE:", "\"RRULE:\": empty rule"),
            (";;;", "FREQ is required (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)"),
            ("FREQ=", "FREQ=: a value is required"),
            ("=DAILY", "\"=DAILY\": missing rule part name"),
            ("FREQ=DAILY;BYDAY=XX", "BYDAY=XX: expected [+|-][1…53]MO…SU, e.g. MO, 2TU or -1FR"),
            ("FREQ=MONTHLY;BYDAY=MO,", "BYDAY=: expected [+|-][1…53]MO…SU, e.g. MO, 2TU or -1FR"),
            ("FREQ=MONTHLY;BYDAY=1-MO", "BYDAY=1-MO: expected [+|-][1…53]MO…SU, e.g. MO, 2TU or -1FR"),
            ("FREQ=DAILY;COUNT=1e3", "COUNT=1e3: not an integer"),
            ("FREQ=DAILY;COUNT=99999999999", "COUNT=99999999999: not an integer"),
            ("FREQ=DAILY;BYHOUR=1,,2", "BYHOUR=: not an integer"),
            ("FREQ=DAILY;INTERVAL= 2", "INTERVAL= 2: not an integer")
        ])
    func errors(text: String, message: String) {
        do {
            let rule = try RecurrenceRule(parsing: text)
            Issue.record("\(text) was accepted as \(rule.rfc5545)")
        } catch {
            #expect(String(describing: error) == message, "\(text)")
        }
    }

    @Test("100,000-character inputs are refused quickly")
    func longInputs() {
        let long = String(repeating: "X", count: 100_000)
        let inputs = [
            long,
            "FREQ=DAILY;" + long,
            "FREQ=DAILY;COUNT=" + String(repeating: "9", count: 100_000),
            "FREQ=DAILY;BYHOUR=" + String(repeating: "1,", count: 50_000),
            "FREQ=MONTHLY;BYDAY=" + String(repeating: "-1FR,", count: 20_000) + "XX",
            String(repeating: ";", count: 100_000),
            String(repeating: "FREQ=DAILY;", count: 9_091),
            "FREQ=DAILY;BYDAY=" + String(repeating: "1", count: 99_980) + "MO"
        ]
        for text in inputs {
            let started = ContinuousClock.now
            #expect(throws: RecurrenceRuleError.self, "\(text.prefix(40))… (\(text.count) characters)") {
                try RecurrenceRule(parsing: text)
            }
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(2), "\(text.prefix(40))… took \(elapsed)")
        }
    }

    // MARK: - Fuzz

    @Test("20,000 random token and byte strings never crash the parser; accepted ones round-trip")
    func fuzz() throws {
        let tokens = [
            "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY",
            "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST", "RRULE:", "=", "=", ";", ";", ",", ",",
            "DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY", "SECONDLY", "MO", "SU", "fr", "-", "+", "0",
            "1", "-1", "5", "53", "60", "366", "367", "999999999999", "19970902T090000Z", "20260308",
            "20260230", "T", "Z", " ", "\t", "\u{0}", "é", "=\u{301}", "🙂", "\u{FEFF}", "FREQ=DAILY"
        ]
        let seed = Self.baseSeed ^ 0xF022
        var random = SeededRandom(seed: seed)
        var accepted = 0
        for i in 0..<20_000 {
            let text: String
            if random.chance(0.7) {
                text = (0..<random.int(in: 0...14)).map { _ in random.pick(tokens) }.joined()
            } else {
                let bytes = (0..<random.int(in: 0...40)).map { _ in UInt8(random.int(in: 0...255)) }
                text = String(decoding: bytes, as: UTF8.self)
            }
            guard let rule = try? RecurrenceRule(parsing: text) else { continue }
            accepted += 1
            let again = try RecurrenceRule(parsing: rule.rfc5545)
            #expect(again == rule, "fuzz #\(i) (seed \(seed)): \(text.debugDescription) → \(rule.rfc5545)")
        }
        #expect(accepted > 0)
    }
}
