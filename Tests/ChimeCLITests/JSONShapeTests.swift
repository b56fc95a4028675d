import Foundation
import ChimeTestKit
import Testing

/// The JSON shapes of docs/json.md: each command's output against a stored snapshot (IDs
/// redacted; re-record with CHIME_RECORD_SNAPSHOTS=1), and the rules that hold across commands:
/// one version field, one time shape, one alarm shape, references `chime show` takes.
@Suite("--json: one versioned shape per concept")
struct JSONShapeTests {
    /// A store with one of each: a weekly series with an alarm, an event on another zone's clock,
    /// an all-day event, a reminder with a due time and priority, and a geofenced reminder.
    static func seeded() throws -> StoreSession {
        let s = StoreSession(zone: "Europe/Berlin", now: "2026-11-23T07:00:00Z")
        try s.run("calendar", "add", "Work", "--color", "#CC3333")
        _ = try s.add(
            "event", "Stand-up", "--start", "2026-11-23T09:00", "--duration", "15m", "--calendar", "Work",
            "--repeat", "weekdays", "--alarm", "5m")
        _ = try s.add(
            "event", "Call with New York", "--start", "2026-11-25T10:00", "--tz", "America/New_York",
            "--duration", "30m", "--alarm", "10m", "--location", "Zoom")
        _ = try s.add("event", "Team offsite", "--start", "2026-11-27", "--all-day", "--calendar", "Work")
        _ = try s.add("reminder", "Submit expenses", "--due", "2026-11-27T17:00", "--priority", "1")
        _ = try s.add("reminder", "Buy milk", "--at", "Grocery store@52.5208,13.4094")
        return s
    }

    /// Output with IDs and the store's own clock readings (created, modified) made stable.
    static func stable(_ text: String) -> String {
        redactIDs(text).replacingOccurrences(of: #""(created|modified)":"[0-9T:Z-]+""#, with: #""$1":"<T>""#, options: .regularExpression)
    }

    /// Whether a parsed JSON object holds exactly these fields and values.
    static func same(_ value: Any?, _ expected: [String: Any]) -> Bool {
        guard let object = value as? [String: Any] else { return false }
        return NSDictionary(dictionary: object).isEqual(NSDictionary(dictionary: expected))
    }

    @Test func snapshotsOfAgendaShowAlarmsRemindersFindAndCalendars() throws {
        let s = try Self.seeded()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let outputs: [(String, [String])] = [
            ("json-agenda.json", ["agenda", "--days", "5", "--json"]),
            ("json-show-event.json", ["show", "Call with New York", "--json"]),
            ("json-show-series.json", ["show", "Stand-up", "--json"]),
            ("json-show-reminder.json", ["show", "Submit expenses", "--json"]),
            ("json-alarms.json", ["alarms", "--hours", "72", "--json"]),
            ("json-reminders.json", ["reminders", "--json"]),
            ("json-find.json", ["find", "e", "--json"]),
            ("json-calendars.json", ["calendar", "list", "--json"])
        ]
        for (name, arguments) in outputs {
            let r = try s.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(r.stdout.hasPrefix(#"{"chime_json":1,"#), "\(arguments): \(r.stdout.prefix(80))")
            _ = try JSONDocument.body(r.stdout)  // it parses
            try Snapshot.check(Self.stable(r.stdout), named: name)
        }
    }

    /// The agenda writes its times byte by byte; `show` through ItemFormat: the same object.
    @Test func theAgendaAndShowGiveTheSameTimeAndReference() throws {
        let s = try Self.seeded()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let agenda = try #require(try s.json("agenda", "--days", "5") as? [[String: Any]])
        #expect(agenda.count == 7)  // five stand-ups, the call, the offsite
        for occurrence in agenda {
            let ref = try #require(occurrence["ref"] as? String)
            let item = try #require(try s.json("show", ref) as? [String: Any], "chime show \(ref)")
            #expect(item["ref"] as? String == ref)
            for field in ["start", "end"] {
                #expect(
                    Self.same(occurrence[field], item[field] as? [String: Any] ?? ["missing": true]),
                    "\(ref) \(field): \(occurrence[field] ?? "") vs \(item[field] ?? "")")
            }
        }
        let offsite = try #require(agenda.first { $0["title"] as? String == "Team offsite" })
        #expect(Self.same(offsite["start"], ["local": "2026-11-27", "utc": NSNull(), "all_day": true, "time_zone": NSNull()]), "\(offsite)")
    }

    /// An alarm is the same object in `show` (the item's alarms) and in `alarms` (what fires).
    /// An access decision names what it covers by `kind`, as items and calendars do.
    @Test func anAccessDecisionSaysItsKindAsItemsDo() throws {
        let s = try Self.seeded()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        #expect(try s.run("access", "grant", "exe:/usr/bin/true", "reminders").status == 0)
        let decisions = try #require(try s.json("access", "list") as? [[String: Any]])
        #expect(decisions.count == 1 && decisions.first?["kind"] as? String == "reminder", "\(decisions)")
        #expect(decisions.first?["type"] == nil)
    }

    @Test func anAlarmHasOneShape() throws {
        let s = try Self.seeded()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let item = try #require(try s.json("show", "Call with New York") as? [String: Any])
        let listed = try #require(try s.json("alarms", "--hours", "72") as? [String: Any])
        let firing = try #require((listed["alarms"] as? [[String: Any]])?.first { $0["title"] as? String == "Call with New York" })
        let expected: [String: Any] = ["type": "relative", "offset_seconds": -600, "related_to": "start"]
        let alarms = try #require(item["alarms"] as? [Any])
        #expect(alarms.count == 1 && Self.same(alarms.first, expected), "\(alarms)")
        #expect(Self.same(firing["alarm"], expected), "\(firing)")
        #expect(firing["ref"] as? String == item["ref"] as? String)
        let milk = try #require((listed["armed"] as? [[String: Any]])?.first)
        #expect((milk["alarm"] as? [String: Any])?["type"] as? String == "location")
    }

    /// Every reference a list gives, `chime show` takes back.
    @Test func everyListedReferenceIsAcceptedByShow() throws {
        let s = try Self.seeded()
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let reminders = try #require(try s.json("reminders") as? [[String: Any]])
        let alarms = try #require((try s.json("alarms", "--hours", "72") as? [String: Any])?["alarms"] as? [[String: Any]])
        let found = try #require(try s.json("find", "e") as? [[String: Any]])
        let refs = (reminders + alarms + found).compactMap { $0["ref"] as? String }
        #expect(refs.count == reminders.count + alarms.count + found.count && !refs.isEmpty)
        for ref in Set(refs) { #expect(try s.run("show", ref).status == 0, "chime show \(ref)") }
    }
}
