import Foundation
import ChimeTestKit
import Testing

/// Every numeric option, given a huge or a negative value, is a usage error (exit 64) that
/// names the option — never a trap (exit 132/134) or a stored value that cannot be read back.
@Suite("chime numeric options: bounds checked before anything runs")
struct NumericOptionTests {
    /// A command, the option, and values outside its range (the option is given as `--x=VALUE`
    /// so that negative numbers reach the check instead of looking like options).
    static let cases: [(command: [String], option: String, values: [String])] = [
        (["agenda"], "--days", ["9223372036854775807", "3661", "0", "-1", "-9223372036854775808"]),
        (["alarms"], "--hours", ["9223372036854775807", "87841", "0", "-1"]),
        (["expand", "--dtstart", "2026-01-01", "--rrule", "FREQ=DAILY"], "--count", ["9223372036854775807", "0", "-5"]),
        (["where", "--location", "fixed:1,2"], "--timeout", ["9223372036854775807", "0", "-1"]),
        (["daemon", "--notifier", "stdout"], "--speed", ["1e308", "1e-300", "0", "-1", "inf", "nan"]),
        (["add", "reminder", "X"], "--priority", ["9223372036854775807", "10", "-1"]),
        (["edit", "SOME-ID"], "--priority", ["9223372036854775807", "-1"]),
        (["add", "event", "X", "--start", "2026-12-01T09:00"], "--duration", ["999999999w", "3661d", "-5m", "-PT1S", "P999999999W"]),
        (["add", "event", "X", "--start", "2026-12-01T09:00"], "--alarm", ["-999999999w", "999999999w", "-3661d", "-P999999999W"]),
        (["add", "reminder", "X"], "--at", ["Far@1,2,1e308", "Far@1,2,-5", "Far@1e308,2", "Far@-1e308,2", "Far@1,2,inf"]),
        (["daemon", "--notifier", "stdout"], "--location", ["fixed:1e308,2", "fixed:1,2,1e308", "fixed:1,2,-3", "fixed:-1e308,2"]),
        (["calendar", "subscribe", "https://example.invalid/feed.ics"], "--refresh", ["999999999w", "367d", "P999999999W"])
    ]

    @Test func hugeAndNegativeValuesAreUsageErrorsNamingTheOption() throws {
        let s = StoreSession()
        for (command, option, values) in Self.cases {
            for value in values {
                let arguments = command + ["\(option)=\(value)"]
                let r = try s.run(arguments)
                #expect(r.status == 64, "\(arguments): exit \(r.status), \(r.stderr)")
                let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
                #expect(first.hasPrefix("Error: ") && first.contains(option), "\(arguments): \(r.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: s.path), "a usage error opens no store")
    }

    @Test func theMessageNamesTheValueAndTheRange() throws {
        let s = StoreSession()
        let expected: [([String], String)] = [
            (["agenda", "--days", "9223372036854775807"], "Error: --days 9223372036854775807: must be 1…3660"),
            (["alarms", "--hours", "9223372036854775807"], "Error: --hours 9223372036854775807: must be 1…87840"),
            (["agenda", "--days=-1"], "Error: --days -1: must be 1…3660"),
            (["add", "event", "X", "--start", "2026-12-01", "--duration", "999999999w"], "Error: --duration 999999999w: must be 0…3660d"),
            (["add", "event", "X", "--start", "2026-12-01", "--alarm", "-999999999w"], "Error: --alarm -999999999w: must be -3660d…+3660d"),
            (["where", "--timeout", "86401"], "Error: --timeout 86401: must be 1…86400"),
            (
                ["calendar", "subscribe", "https://example.invalid/feed.ics", "--refresh", "999999999w"],
                "Error: --refresh 999999999w: must be 5m…366d"
            )
        ]
        for (arguments, message) in expected {
            let r = try s.run(arguments)
            #expect(r.status == 64)
            #expect(r.stderr.hasPrefix(message + "\n"), "\(arguments): \(r.stderr)")
        }
    }

    @Test func datesBeyondTheYear9999AreRefusedNotStored() throws {
        let s = StoreSession()
        _ = try s.add("event", "Dentist", "--start", "tomorrow 9:00")  // a refused add makes no store
        for (command, option, value) in [
            (["agenda"], "--from", "+999999999w"), (["alarms"], "--to", "+999999999w"),
            (["add", "event", "X"], "--start", "+999999999w"),
            (["add", "reminder", "X"], "--due", "-999999999w")
        ] {
            let r = try s.run(command + ["\(option)=\(value)"])
            #expect(r.status == 1, "\(command): exit \(r.status), \(r.stderr)")
            #expect(r.stderr == "Error: \(option) \(value): must be between 0000-01-01 and 9999-12-31\n", "\(command): \(r.stderr)")
        }
        #expect(try s.run("agenda", "--days", "3660").status == 0)
        #expect(try s.run("alarms", "--hours", "87840").status == 0)
    }
}
