import ChimeCalDAV
import ChimeCore
import Foundation
import GRDB
import ChimeTestKit
import ChimeTestSupport
import Testing

/// Two stores on one server, as two machines, driven through the `chime` command line.
@Suite("CalDAV sync against Radicale (and Xandikos)", .enabled(if: CalDAVHome.available))
struct CalDAVSyncTests {
    /// What a user sees of a store, without the local IDs (each machine has its own).
    private func view(_ s: StoreSession) throws -> String {
        let agenda = try s.run("agenda", "--from", "2026-11-30", "--days", "21")
        let reminders = try s.run("reminders"), completed = try s.run("reminders", "--completed")
        #expect(agenda.status == 0 && reminders.status == 0 && completed.status == 0, "\(agenda.stderr)\(reminders.stderr)")
        // Lines sorted: items with the same due time list in creation order, which differs per machine.
        return redactIDs(agenda.stdout + reminders.stdout + completed.stdout)
            .split(separator: "\n").sorted().joined(separator: "\n")
    }

    private func sync(_ s: StoreSession, _ account: String) throws -> CLIResult {
        let r = try s.run("account", "sync", account)
        #expect(r.status == 0, "sync \(account): \(r.stderr)")
        return r
    }

    @Test(arguments: CalDAVServerKind.allCases) func whatOneMachineDoesTheOtherSeesAfterOneSync(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession(zone: "Europe/Berlin"), b = StoreSession(zone: "Europe/Berlin")
        #expect(try home.addAccount("home", to: a).status == 0)
        let standUp = try a.add(
            "event", "Stand-up", "--start", "2026-12-01T09:00", "--duration", "15m", "--repeat", "FREQ=WEEKLY;BYDAY=TU",
            "--calendar", "Work", "--alarm", "-5m")
        _ = try a.add("reminder", "Water plants", "--due", "2026-12-02T18:00", "--repeat", "FREQ=WEEKLY", "--list", "Todo")
        _ = try a.add("reminder", "Buy milk", "--due", "2026-12-01T18:00", "--list", "Todo", "--at", "Grocery@52.5250,13.4020", "--on", "arrive")
        #expect(try sync(a, "home").stdout.contains("3 sent"))
        #expect(try home.addAccount("laptop", to: b).status == 0)
        #expect(try view(b) == view(a))

        // The location alarm arrived with both coordinates (Radicale cuts Apple's geo: value at its comma).
        let milk = try #require((try b.json("reminders") as? [[String: Any]])?.first { $0["title"] as? String == "Buy milk" })
        let shown = try b.run("show", milk["id"] as! String).stdout
        #expect(shown.contains("52.525") && shown.contains("13.402"), "\(shown)")

        // One occurrence moved on B, then this and later ones on A.
        let bStandUp = try #require((try b.json("agenda", "--from", "2026-12-08", "--days", "1") as? [[String: Any]])?.first)
        let reference = try #require(bStandUp["ref"] as? String)
        #expect(try b.run("edit", reference, "--start", "2026-12-08T11:00", "--title", "Stand-up (moved)").status == 0)
        _ = try sync(b, "laptop")
        _ = try sync(a, "home")
        #expect(try view(a).contains("11:00-11:15  Stand-up (moved)"))
        #expect(try view(b) == view(a))
        #expect(try a.run("edit", standUp + "@20261215T080000Z", "--span", "future", "--start", "2026-12-15T10:00").status == 0)
        _ = try sync(a, "home")
        _ = try sync(b, "laptop")
        #expect(try view(b) == view(a))
        #expect(try view(b).contains("10:00-10:15  Stand-up"))

        // Completing a recurring reminder: the series moves on, a completed copy is kept, on both.
        let water = try #require((try b.json("reminders") as? [[String: Any]])?.first { $0["title"] as? String == "Water plants" })
        #expect(try b.run("complete", water["id"] as! String).status == 0)
        _ = try sync(b, "laptop")
        _ = try sync(a, "home")
        #expect(try view(a) == view(b))
        #expect(try view(a).contains("due Wed 2026-12-09 18:00"))

        // A removal on A goes away on B.
        // (The edit above split the series in two: each goes.)
        let series = Set(try #require(try a.json("agenda", "--from", "2026-11-30", "--days", "30") as? [[String: Any]]).compactMap { $0["id"] as? String })
        #expect(series.count == 2 && series.contains(standUp))
        for id in series { #expect(try a.run("remove", id).status == 0) }
        _ = try sync(a, "home")
        _ = try sync(b, "laptop")
        #expect(try !view(b).contains("Stand-up"))
        #expect(try view(b) == view(a))
        // Nothing doubled on the server: one resource per UID.
        let onServer = try await home.members(of: "todo").values
        let uids = onServer.compactMap { $0.split(whereSeparator: \.isNewline).first { $0.hasPrefix("UID:") } }
        #expect(uids.count == Set(uids).count && uids.count == onServer.count)
    }

    /// A calendar or list added with `--account` is made on the server (MKCALENDAR) and is on the
    /// other machine after its next sync, with what it holds; the same title twice, or an account
    /// that does not exist, is refused with the reason and makes nothing.
    @Test(arguments: CalDAVServerKind.allCases) func aCalendarAddedOnTheAccountIsOnEveryMachine(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let a = StoreSession(zone: "Europe/Berlin"), b = StoreSession(zone: "Europe/Berlin")
        #expect(try home.addAccount("home", to: a).status == 0)
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let added = try a.run("calendar", "add", "Family", "--account", "home", "--color", "#CC3333")
        #expect(added.status == 0 && added.stdout.contains("Added calendar \"Family\" on account home"), "\(added.stdout)\(added.stderr)")
        let again = try a.run("calendar", "add", "Family", "--account", "home")
        #expect(again.status != 0 && again.stderr.contains("account \"home\" has a calendar named \"Family\" already"), "\(again.stderr)")
        let wrong = try a.run("calendar", "add", "Trips", "--account", "office")
        #expect(wrong.status != 0 && wrong.stderr.contains("no account \"office\" (accounts: home)"), "\(wrong.stderr)")
        let list = try a.run("calendar", "add", "Errands", "--type", "reminders", "--account", "home")
        #expect(list.status == 0, "\(list.stderr)")
        _ = try a.add("event", "Dinner with Mum", "--start", "2026-12-05T19:00", "--calendar", "Family")
        _ = try a.add("reminder", "Stamps", "--due", "2026-12-05T10:00", "--list", "Errands")
        _ = try sync(a, "home")
        // On the server: two new collections, each taking its one kind, with what they hold.
        let collections = try await CalDAVServer(client: DAVClient(user: home.user, password: home.password)).collections(home: home.homeURL)
        let family = try #require(collections.first { $0.displayName == "Family" })
        let errands = try #require(collections.first { $0.displayName == "Errands" })
        #expect(family.takesEvents && !family.takesReminders && errands.takesReminders && !errands.takesEvents)
        #expect(collections.filter { $0.displayName == "Family" }.count == 1)
        // On the other machine after one sync.
        let synced = try sync(b, "laptop")
        #expect(synced.stdout.contains("new calendar \"Family\"") && synced.stdout.contains("new calendar \"Errands\""), "\(synced.stdout)")
        #expect(try b.run("agenda", "--from", "2026-12-05", "--days", "1").stdout.contains("Dinner with Mum  [Family]"))
        #expect(try b.run("reminders").stdout.contains("Stamps"))
    }

    /// A server calendar that takes events and to-dos (as most clients make them) is one line in
    /// `calendar list`, as it is one calendar on every other device; events and reminders go in.
    /// What a sync moved, and the account list, in the user's language; English under LANG=C.
    @Test func theSyncSummaryIsInTheUsersLanguage() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let s = StoreSession()
        #expect(try home.addAccount("home", to: s).status == 0)
        _ = try s.add("event", "Zahnarzt", "--start", "2026-12-01T09:00", "--calendar", "Work")
        var german = CatalogSandbox.environment(s.environment, language: "de_DE.UTF-8")
        let sent = try CLI.run(["account", "sync", "home"], environment: german)
        #expect(sent.status == 0 && sent.stdout.hasPrefix("home: ") && sent.stdout.contains("Anfrage"), "\(sent.stdout)\(sent.stderr)")
        #expect(!sent.stdout.contains("from the server") && !sent.stdout.contains("request"), "\(sent.stdout)")
        let again = try CLI.run(["account", "sync", "home"], environment: german)
        #expect(again.stdout.hasPrefix("home: auf dem gleichen Stand, nichts zu übertragen ("), "\(again.stdout)")
        let listed = try CLI.run(["account", "list"], environment: german)
        #expect(listed.stdout.contains("\(home.user) bei \(home.url)") && listed.stdout.contains("Termine"), "\(listed.stdout)")
        german["LANG"] = "C"
        #expect(try CLI.run(["account", "sync", "home"], environment: german).stdout.hasPrefix("home: in step, nothing to move ("))
    }

    @Test func aServerCalendarOfBothKindsIsListedOnce() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("personal", title: "Personal", components: ["VEVENT", "VTODO"])
        let s = StoreSession(zone: "Europe/Berlin")
        #expect(try home.addAccount("home", to: s).status == 0)
        let listed = try s.run("calendar", "list").stdout.split(separator: "\n").filter { $0.hasPrefix("Personal") }
        #expect(listed.count == 1 && listed[0].contains("events+reminders  account home"), "\(listed)")
        let words = listed.first.map { line in line.split(separator: " ").map(String.init) } ?? []
        #expect(words.suffix(2).allSatisfy { $0.count == 36 }, "both IDs: \(listed)")
        #expect(try s.run("add", "event", "Swim", "--start", "2026-12-05T08:00", "--calendar", "Personal").status == 0)
        #expect(try s.run("add", "reminder", "Towel", "--list", "Personal").status == 0)
    }

    /// A server that refuses MKCALENDAR: the error names the account and the server's answer, and
    /// no calendar is made on this machine.
    @Test func aServerThatRefusesANewCalendarLeavesNothingBehind() async throws {
        let (proxy, home) = try CalDAVHome.claim().behindProxy("no-mkcalendar")
        defer {
            kill(proxy.processIdentifier, SIGKILL)
            proxy.waitUntilExit()
        }
        let s = StoreSession(zone: "Europe/Berlin")
        #expect(try home.addAccountOnceUp("home", to: s).status == 0)
        let before = try s.run("calendar", "list").stdout
        let refused = try s.run("calendar", "add", "Family", "--account", "home")
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.contains("the calendar was not made on account \"home\"") && refused.stderr.contains("403"), "\(refused.stderr)")
        #expect(try s.run("calendar", "list").stdout == before)
    }

    /// A birthday on the Chinese calendar made on one machine repeats on its lunar date on the
    /// other. Neither server lists a supported-rscale-set, and the user hears it. Xandikos stores
    /// the rule as written; Radicale refuses it (HTTP 400), so the event goes as its dates for the
    /// coming years, which every client shows, with the rule kept beside them for Chime.
    @Test(arguments: CalDAVServerKind.allCases) func aLunarBirthdayMadeOnOneMachineRepeatsOnItsLunarDateOnTheOther(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("family", title: "Family", components: ["VEVENT"])
        let a = StoreSession(zone: "Asia/Shanghai"), b = StoreSession(zone: "Asia/Shanghai")
        #expect(try home.addAccount("home", to: a).status == 0)
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let added = try a.run(
            "add", "event", "妈妈生日", "--start", "2026-09-25", "--repeat", "yearly", "--calendar-system", "chinese",
            "--calendar", "Family")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.contains("supported-rscale-set") && added.stderr.contains("Chinese"), "\(added.stderr)")
        let pushed = try sync(a, "home")
        #expect(pushed.stdout.contains("1 sent"), "\(pushed.stdout)\(pushed.stderr)")
        let onServer = try await home.members(of: "family").values.joined()
        switch kind {
        case .radicale:
            #expect(pushed.stderr.contains("refuses rules on the Chinese calendar"), "\(pushed.stderr)")
            #expect(
                onServer.contains("X-CHIME-RSCALE-RRULE:RSCALE=CHINESE\\;FREQ=YEARLY\\;SKIP=BACKWARD") && !onServer.contains("\nRRULE:")
                    && onServer.contains("20270915") && onServer.contains("20281003"), "\(onServer)")
        case .xandikos:
            #expect(pushed.stderr.contains("supported-rscale-set"), "\(pushed.stderr)")
            #expect(onServer.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"), "\(onServer)")
        }
        _ = try sync(b, "laptop")
        let days = try #require(try b.json("agenda", "--from", "2027-01-01", "--to", "2029-12-31") as? [[String: Any]])
            .compactMap { ($0["start"] as? [String: Any])?["local"] as? String }
        #expect(days == ["2027-09-15", "2028-10-03", "2029-09-22"], "\(days)")
        // B holds the rule itself, not a list of dates: an edit there sends nothing back.
        let shown = try b.run("show", "妈妈生日").stdout
        #expect(shown.contains("RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD") && !shown.contains("2028-10-03"), "\(shown)")
        let again = try sync(b, "laptop"), back = try sync(a, "home")
        #expect(again.stdout.contains("in step") && back.stdout.contains("in step"), "\(again.stdout)\(again.stderr)\(back.stdout)\(back.stderr)")
    }

    /// Dismissed on one machine: after a sync each way the other lists it as acknowledged (it will
    /// not ring there), and the server copy carries the answer in the forms Thunderbird, Apple's
    /// clients and Evolution read.
    @Test(arguments: CalDAVServerKind.allCases) func anAlarmDismissedOnOneMachineIsAnsweredOnTheOther(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let a = StoreSession(zone: "Europe/Berlin", now: "2026-12-07T09:50:00Z"), b = StoreSession(zone: "Europe/Berlin", now: "2026-12-07T09:50:00Z")
        #expect(try home.addAccount("home", to: a).status == 0)
        let dentist = try a.add("event", "Dentist", "--start", "2026-12-07T11:00", "--duration", "45m", "--calendar", "Work", "--alarm", "-15m")
        _ = try sync(a, "home")
        #expect(try home.addAccount("laptop", to: b).status == 0)
        func states(_ s: StoreSession) throws -> [String] {
            let r = try s.run("alarms", "--from", "2026-12-07T09:00:00Z", "--hours", "4", "--json")
            #expect(r.status == 0, "\(r.stderr)")
            let alarms = try #require(try JSONDocument.body(r.stdout) as? [String: Any])["alarms"] as? [[String: Any]] ?? []
            return alarms.map { "\($0["title"] as? String ?? "?") \($0["fire"] as? String ?? "?") \($0["state"] as? String ?? "?")" }
        }
        #expect(try states(b) == ["Dentist 2026-12-07T09:45:00Z scheduled"])
        let dismissed = try a.run("dismiss", dentist)
        #expect(dismissed.status == 0 && dismissed.stdout.contains("other devices stop ringing it"), "\(dismissed.stdout)\(dismissed.stderr)")
        #expect(try sync(a, "home").stdout.contains("1 sent"))
        _ = try sync(b, "laptop")
        #expect(try states(b) == ["Dentist 2026-12-07T09:45:00Z acknowledged"])
        let copy = try #require(try await home.members(of: "work").values.first).replacingOccurrences(of: "\r\n ", with: "")
        #expect(copy.contains("X-MOZ-LASTACK:20261207T095000Z") && copy.contains("ACKNOWLEDGED:20261207T095000Z"), "\(copy)")
        // Nothing left to answer on B: the alarm is answered there too.
        #expect(try b.run("dismiss", "Dentist").status != 0)
    }

    /// Snoozed on A (`chime snooze`): after one sync each, both machines ring it once at the snooze
    /// time, as the snooze alarm's one firing, and the snoozed alarm is answered on both. The
    /// server copy carries both dialects (RFC 9074 and Thunderbird's).
    @Test(arguments: CalDAVServerKind.allCases) func anAlarmSnoozedOnOneMachineRingsAtTheSnoozeTimeOnBoth(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let a = StoreSession(zone: "Europe/Berlin", now: "2026-12-07T09:50:00Z"), b = StoreSession(zone: "Europe/Berlin", now: "2026-12-07T09:50:00Z")
        #expect(try home.addAccount("home", to: a).status == 0)
        _ = try a.add("event", "Dentist", "--start", "2026-12-07T11:00", "--duration", "45m", "--calendar", "Work", "--alarm", "-15m")
        _ = try sync(a, "home")
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let snoozed = try a.run("snooze", "Dentist", "10m")
        #expect(
            snoozed.status == 0 && snoozed.stdout.contains("until Mon 2026-12-07 11:00") && snoozed.stdout.contains("other devices ring it then too"),
            "\(snoozed.stdout)\(snoozed.stderr)")
        #expect(try sync(a, "home").stdout.contains("1 sent"))
        _ = try sync(b, "laptop")
        func alarms(_ s: StoreSession) throws -> [String] {
            let r = try s.run("alarms", "--from", "2026-12-07T09:00:00Z", "--hours", "4", "--json")
            #expect(r.status == 0, "\(r.stderr)")
            let alarms = try #require(try JSONDocument.body(r.stdout) as? [String: Any])["alarms"] as? [[String: Any]] ?? []
            return alarms.map { "\($0["fire"] as? String ?? "?") \($0["state"] as? String ?? "?") \($0["key"] as? String ?? "?")" }
        }
        let onA = try alarms(a), onB = try alarms(b)
        #expect(onA.count == 2 && onB.count == 2, "A: \(onA) B: \(onB)")
        #expect(onA.first?.hasPrefix("2026-12-07T09:45:00Z dismissed") == true && onB.first?.hasPrefix("2026-12-07T09:45:00Z acknowledged") == true)
        #expect(onA.last?.hasPrefix("2026-12-07T10:00:00Z snoozed") == true && onB.last?.hasPrefix("2026-12-07T10:00:00Z scheduled") == true)
        // Local IDs differ between machines; the rest of the key (occurrence and alarm) is the same firing.
        func firing(_ line: String?) -> String? { line?.split(separator: " ").last.flatMap { $0.split(separator: "@", maxSplits: 1).last }.map(String.init) }
        #expect(firing(onA.last) == firing(onB.last), "one firing on both machines")
        let copy = try #require(try await home.members(of: "work").values.first).replacingOccurrences(of: "\r\n ", with: "")
        #expect(copy.contains("X-MOZ-SNOOZE-TIME:20261207T100000Z") && copy.contains("RELATED-TO;RELTYPE=SNOOZE:"), "\(copy)")
        // The snooze rang on B, which dismissed it: A's snooze is over after its next sync.
        var atTen = b.environment
        atTen["CHIME_NOW"] = "2026-12-07T10:00:30Z"
        let dismissed = try CLI.run(["dismiss", "Dentist"], environment: atTen)
        #expect(dismissed.status == 0, "\(dismissed.stdout)\(dismissed.stderr)")
        #expect(try sync(b, "laptop").stdout.contains("1 sent"))
        _ = try sync(a, "home")
        let afterDismiss = try alarms(a)
        #expect(afterDismiss.count == 1, "\(afterDismiss)")
    }

    /// A server that keeps only what it knows drops the answer lines and says so by answering
    /// the PUT without an ETag: Chime fetches what it kept, keeps the answer here, and does not
    /// send it again: one write, no loop.
    @Test func aServerThatDropsTheAnswerCostsOneWriteNeverALoop() async throws {
        let puts = FileManager.default.temporaryDirectory.appendingPathComponent("chime-puts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: puts) }
        let direct = try CalDAVHome.claim()
        try await direct.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let (proxy, home) = try direct.behindProxy("strip-answers:" + puts)
        defer {
            kill(proxy.processIdentifier, SIGKILL)
            proxy.waitUntilExit()
        }
        let a = StoreSession(zone: "Europe/Berlin", now: "2026-12-07T09:50:00Z")
        #expect(try home.addAccountOnceUp("home", to: a).status == 0)
        _ = try a.add("event", "Dentist", "--start", "2026-12-07T11:00", "--duration", "45m", "--calendar", "Work", "--alarm", "-15m")
        _ = try sync(a, "home")
        func putCount() -> Int { ((try? String(contentsOfFile: puts, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let before = putCount()
        #expect(try a.run("dismiss", "Dentist").status == 0)
        for _ in 0..<3 { _ = try sync(a, "home") }
        #expect(putCount() == before + 1, "PUTs after the dismiss: \(putCount() - before)")
        let r = try a.run("alarms", "--from", "2026-12-07T09:00:00Z", "--hours", "4", "--json")
        let alarms = try #require(try JSONDocument.body(r.stdout) as? [String: Any])["alarms"] as? [[String: Any]] ?? []
        #expect(alarms.map { $0["state"] as? String } == ["acknowledged"], "answered here still")
        let copy = try #require(try await direct.members(of: "work").values.first)
        #expect(!copy.contains("ACKNOWLEDGED"), "the proxy strips: \(copy)")
    }

    /// Dismissed on A while B renamed the meeting and synced first: A's pass merges the two, and
    /// both machines end with the new title and the answer (no conflict, nothing re-rings).
    @Test(arguments: CalDAVServerKind.allCases) func anAnswerGivenWhileTheOtherMachineEditedKeepsBoth(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let a = StoreSession(zone: "Europe/Berlin", now: "2026-12-07T09:50:00Z"), b = StoreSession(zone: "Europe/Berlin", now: "2026-12-07T09:50:00Z")
        #expect(try home.addAccount("home", to: a).status == 0)
        let review = try a.add("event", "Review", "--start", "2026-12-07T11:00", "--duration", "1h", "--calendar", "Work", "--alarm", "-15m")
        _ = try sync(a, "home")
        #expect(try home.addAccount("laptop", to: b).status == 0)
        #expect(try b.run("edit", "Review", "--title", "Design review").status == 0)
        _ = try sync(b, "laptop")
        #expect(try a.run("dismiss", review).status == 0)
        let passed = try sync(a, "home")
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        _ = try sync(b, "laptop")
        for (name, s) in [("A", a), ("B", b)] {
            let r = try s.run("alarms", "--from", "2026-12-07T09:00:00Z", "--hours", "4", "--json")
            let alarms = try #require(try JSONDocument.body(r.stdout) as? [String: Any])["alarms"] as? [[String: Any]] ?? []
            #expect(
                alarms.map { "\($0["title"] as? String ?? "?") \($0["state"] as? String ?? "?")" } == ["Design review acknowledged"],
                "\(name): \(alarms)")
        }
        let copy = try #require(try await home.members(of: "work").values.first).replacingOccurrences(of: "\r\n ", with: "")
        #expect(
            copy.contains("SUMMARY:Design review") && copy.contains("X-MOZ-LASTACK:20261207T095000Z")
                && copy.contains("ACKNOWLEDGED:20261207T095000Z"), "\(copy)")
        #expect(try a.run("account", "conflicts").stdout.contains("No conflicts."))
    }

    @Test(arguments: CalDAVServerKind.allCases) func editsOnBothMachinesMergeAndWhatLosesIsKept(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession(), b = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        let id = try a.add("reminder", "Milk", "--due", "2026-12-01T18:00", "--list", "Todo")
        _ = try sync(a, "home")
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let bID = try #require((try b.json("reminders") as? [[String: Any]])?.first?["id"] as? String)

        // Different fields: both kept.
        #expect(try a.run("edit", id, "--title", "Oat milk").status == 0)
        #expect(try b.run("edit", bID, "--notes", "two litres").status == 0)
        _ = try sync(b, "laptop")
        _ = try sync(a, "home")
        _ = try sync(b, "laptop")
        for s in [a, b] {
            let r = try #require((try s.json("reminders") as? [[String: Any]])?.first)
            #expect(r["title"] as? String == "Oat milk" && r["notes"] as? String == "two litres", "\(r)")
        }
        #expect(try a.run("account", "conflicts").stdout.contains("No conflicts."))

        // The same field: the server's copy (B synced first) wins; A's version is kept as a conflict.
        #expect(try a.run("edit", id, "--title", "Goat milk").status == 0)
        #expect(try b.run("edit", bID, "--title", "Cow milk").status == 0)
        _ = try sync(b, "laptop")
        let aSync = try sync(a, "home")
        #expect(aSync.stdout.contains("conflict"), "\(aSync.stdout)")
        for s in [a, b] {
            #expect((try s.json("reminders") as? [[String: Any]])?.first?["title"] as? String == "Cow milk")
        }
        let conflicts = try #require(try a.json("account", "conflicts") as? [[String: Any]])
        #expect(conflicts.count == 1)
        #expect((conflicts.first?["lost_copy"] as? String)?.contains("SUMMARY:Goat milk") == true)
        #expect((conflicts.first?["what"] as? String)?.contains("title") == true)

        // A change here to an item removed there: a conflict, kept, not an endless retry.
        #expect(try b.run("remove", bID).status == 0)
        _ = try sync(b, "laptop")
        #expect(try a.run("edit", id, "--title", "Almond milk").status == 0)
        _ = try sync(a, "home")
        #expect(try a.run("reminders").stdout.contains("No reminders") || !a.run("reminders").stdout.contains("milk"))
        let kept = try #require(try a.json("account", "conflicts") as? [[String: Any]])
        #expect(kept.contains { ($0["lost_copy"] as? String)?.contains("SUMMARY:Almond milk") == true })
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
    }

    @Test func aChangeByAThirdClientArrives() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let a = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        // The Python `caldav` package (PyPI) writes an event with an alarm, as another app would.
        let script = """
            import caldav, datetime, sys
            client = caldav.DAVClient(url=sys.argv[1], username=sys.argv[2], password=sys.argv[3])
            cal = client.calendar(url=sys.argv[1].rstrip('/') + '/' + sys.argv[2] + '/work/')
            cal.save_event(dtstart=datetime.datetime(2026, 12, 3, 14, 0, tzinfo=datetime.timezone.utc),
                           dtend=datetime.datetime(2026, 12, 3, 15, 0, tzinfo=datetime.timezone.utc),
                           summary='Dentist (from python)', uid='third-client-1',
                           alarm_trigger=datetime.timedelta(minutes=-30), alarm_action='DISPLAY')
            """
        let python = try CLI.run(["python3", "-c", script, home.url, home.user, home.password], executable: "/usr/bin/env")
        #expect(python.status == 0, "python caldav: \(python.stderr)")
        #expect(try sync(a, "home").stdout.contains("1 from the server"))
        let agenda = try a.run("agenda", "--from", "2026-12-03", "--days", "1").stdout
        #expect(agenda.contains("Dentist (from python)"), "\(agenda)")
        let alarms = try a.run("alarms", "--from", "2026-12-03T00:00Z", "--hours", "24").stdout
        #expect(alarms.contains("Dentist (from python)"), "\(alarms)")
    }

    /// Another client rewrote an item on the server with only Apple's form of its location alarm,
    /// which Radicale cuts at its comma (no longitude left): the title change arrives, and the
    /// complete local location alarm stays.
    @Test func aServerCopyThatLostItsLocationAlarmDoesNotTakeTheLocalOne() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession(zone: "Europe/Berlin")
        #expect(try home.addAccount("home", to: a).status == 0)
        _ = try a.add("reminder", "Buy milk", "--due", "2026-12-01T18:00", "--list", "Todo", "--at", "Grocery@52.5250,13.4020", "--on", "arrive")
        #expect(try sync(a, "home").stdout.contains("1 sent"))

        let server = CalDAVServer(client: DAVClient(user: home.user, password: home.password))
        let collection = home.homeURL.appendingPathComponent("todo/")
        let listing = try await server.changes(in: collection, since: nil)
        let (href, copy) = try #require(try await server.fetch(listing.responses.map(\.href), in: collection).first)
        #expect(copy.text.contains("X-APPLE-STRUCTURED-LOCATION"), "\(copy.text)")
        // What a client that knows only Apple's form writes back: no VLOCATION, no PROXIMITY, a new title.
        var kept: [Substring] = [], inLocation = false
        let unfolded = copy.text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        for line in unfolded.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.hasPrefix("BEGIN:VLOCATION") { inLocation = true }
            if !inLocation && !line.hasPrefix("PROXIMITY") {
                kept.append(line.hasPrefix("SUMMARY:") ? "SUMMARY:Buy milk and bread" : line)
            }
            if line.hasPrefix("END:VLOCATION") { inLocation = false }
        }
        let rewritten = kept.joined(separator: "\r\n").replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1")
        let put = try await server.put(rewritten, at: href, in: collection, ifMatch: copy.etag)
        #expect((200..<300).contains(put.status), "PUT: \(put.status)")
        let stored = try #require(try await server.fetch([href], in: collection)[href])
        #expect(!stored.text.contains("13.402"), "the server kept the longitude after all: \(stored.text)")

        let pulled = try sync(a, "home")
        #expect(
            pulled.stderr.contains("local location alarm(s) kept") || pulled.stdout.contains("local location alarm(s) kept"),
            "\(pulled.stdout)\(pulled.stderr)")
        let milk = try #require((try a.json("reminders") as? [[String: Any]])?.first)
        #expect(milk["title"] as? String == "Buy milk and bread")
        let alarms = milk["alarms"] as? [[String: Any]] ?? []
        #expect(
            alarms.contains { $0["type"] as? String == "location" && ($0["longitude"] as? Double).map { abs($0 - 13.402) < 1e-6 } == true },
            "\(alarms)")
    }

    @Test func aWrongPasswordIsOneClearErrorAndLeavesNoAccount() throws {
        let home = try CalDAVHome.claim()
        let a = StoreSession()
        let started = Date()
        let r = try a.run("account", "add", "home", "--url", home.url, "--user", home.user, "--password-command", "echo wrong")
        #expect(r.status != 0)
        #expect(r.stderr.contains("refused the password for user \"\(home.user)\""), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count <= 2, "one error, not a storm: \(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(try a.run("account", "list").stdout.contains("No accounts"))
        let failing = try a.run("account", "add", "home", "--url", home.url, "--user", home.user, "--password-command", "exit 3")
        #expect(failing.status != 0 && failing.stderr.contains("password command failed (exit 3)"), "\(failing.stderr)")
    }

    @Test func editsMadeWhileTheServerIsUnreachableGoOutWhenItIsBack() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        // The server's address stops answering (a port nothing listens on), as off-line.
        let live = try #require(URL(string: home.url)?.port)
        let dead = try closedLoopbackPort()
        func point(_ from: Int, _ to: Int) async throws {
            try await DatabaseQueue(path: a.path).write { db in
                for sql in [
                    "UPDATE sync_account SET home = replace(home, ':\(from)/', ':\(to)/'), url = replace(url, ':\(from)/', ':\(to)/')",
                    "UPDATE sync_collection SET url = replace(url, ':\(from)/', ':\(to)/')"
                ] { try db.execute(sql: sql) }
            }
        }
        try await point(live, dead)
        _ = try a.add("reminder", "Written offline", "--list", "Todo")
        let down = try a.run("account", "sync")
        #expect(down.status != 0 && down.stderr.contains("no answer from the server"), "\(down.stderr)")
        #expect(try a.run("account", "list").stdout.contains("last sync failed"))
        #expect(try await home.members(of: "todo").isEmpty)
        try await point(dead, live)
        let back = try sync(a, "home")
        #expect(back.stdout.contains("1 sent"), "\(back.stdout)")
        #expect(try await home.members(of: "todo").values.contains { $0.contains("SUMMARY:Written offline") })
        #expect(try !a.run("account", "list").stdout.contains("failed"))
    }

    @Test func killedInTheMiddleOfASyncNoItemIsDoubledOrLost() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for i in 0..<150 {
            ics += "BEGIN:VTODO\r\nUID:kill-\(i)\r\nDTSTAMP:20261120T120000Z\r\nSUMMARY:Task \(i)\r\nDUE:20261201T090000Z\r\nEND:VTODO\r\n"
        }
        ics += "END:VCALENDAR\r\n"
        let file = a.folder + "/tasks.ics"
        try FileManager.default.createDirectory(atPath: a.folder, withIntermediateDirectories: true)
        try ics.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try a.run("import", file, "--calendar", "Todo").status == 0)
        // kill -9 a running sync at different moments, four times, then let one finish.
        for delay in [150_000, 400_000, 800_000, 1_500_000] as [UInt32] {
            let p = Process()
            p.executableURL = CLI.binary
            p.arguments = ["account", "sync", "home"]
            p.environment = ProcessInfo.processInfo.environment.merging(a.environment) { $1 }
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        _ = try sync(a, "home")
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
        let onServer = try await home.members(of: "todo")
        let titles = onServer.values.compactMap { $0.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") } }
        #expect(titles.count == 150 && Set(titles).count == 150, "\(titles.count) on the server")
        let local = try #require(try a.json("reminders") as? [[String: Any]])
        #expect(local.count == 150)
        // A second machine gets exactly the same.
        let b = StoreSession()
        #expect(try home.addAccount("laptop", to: b).status == 0)
        #expect((try b.json("reminders") as? [[String: Any]])?.count == 150)
    }

    /// A sync killed between a create-PUT the server answered and recording it leaves the item on
    /// the server with no record here (simulated by deleting the record). The next pull finds the
    /// resource "new": a local edit made meanwhile must not be overwritten by the server's copy
    /// unsaid. The local version is kept and sent, the server's kept as a conflict; an item left
    /// unedited is simply taken up again, without a conflict.
    @Test func anEditAfterAnUploadWhoseRecordWasLostIsKept() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        let call = try a.add("reminder", "Call Bob", "--due", "2026-12-01T18:00", "--list", "Todo")
        _ = try a.add("reminder", "Pay rent", "--due", "2026-12-01T09:00", "--list", "Todo")
        #expect(try sync(a, "home").stdout.contains("2 sent"))
        try await DatabaseQueue(path: a.path).write { db in try db.execute(sql: "DELETE FROM sync_resource") }
        #expect(try a.run("edit", call, "--title", "Call Bob about the lease").status == 0)

        let r = try sync(a, "home")
        #expect(r.stdout.contains("conflict"), "\(r.stdout)")
        let titles = try #require(try a.json("reminders") as? [[String: Any]]).compactMap { $0["title"] as? String }.sorted()
        #expect(titles == ["Call Bob about the lease", "Pay rent"])
        // The edit went to the server; nothing doubled there.
        let onServer = try await home.members(of: "todo").values
        let summaries = onServer.compactMap { $0.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") } }.sorted()
        #expect(summaries == ["SUMMARY:Call Bob about the lease", "SUMMARY:Pay rent"])
        // One conflict, for the edited item only, holding the server's copy it replaced.
        let conflicts = try #require(try a.json("account", "conflicts") as? [[String: Any]])
        #expect(conflicts.count == 1, "\(conflicts)")
        #expect((conflicts.first?["lost_copy"] as? String)?.contains("SUMMARY:Call Bob\n") == true, "\(conflicts)")
        #expect((conflicts.first?["what"] as? String)?.contains("local version kept") == true, "\(conflicts)")
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
        // A second machine sees the edit.
        let b = StoreSession()
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let there = try #require(try b.json("reminders") as? [[String: Any]]).compactMap { $0["title"] as? String }.sorted()
        #expect(there == ["Call Bob about the lease", "Pay rent"])
    }

    @Test(arguments: CalDAVServerKind.allCases) func aRefusedSyncTokenMeansAFullListingWithoutDuplicates(_ kind: CalDAVServerKind) async throws {
        let home = try CalDAVHome.on(kind)
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession(), b = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        for title in ["One", "Two", "Three"] { _ = try a.add("reminder", title, "--list", "Todo") }
        _ = try sync(a, "home")
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let two = try #require((try b.json("reminders") as? [[String: Any]])?.first { $0["title"] as? String == "Two" }?["id"] as? String)
        #expect(try b.run("edit", two, "--title", "Two (edited)").status == 0)
        _ = try sync(b, "laptop")
        // A token the server no longer knows (Radicale forgets them after 30 idle days), in each
        // server's own form: Radicale answers 403, Xandikos 412.
        let unknown =
            kind == .radicale
            ? "http://radicale.org/ns/sync/0000000000000000000000000000000000000000000000000000000000000000"
            : "http://xandikos.org/ns/sync/0000000000000000000000000000000000000000"
        try await DatabaseQueue(path: a.path).write { db in
            try db.execute(sql: "UPDATE sync_collection SET sync_token = ?", arguments: [unknown])
        }
        let r = try sync(a, "home")
        #expect(r.stderr.contains("refused the sync token"), "\(r.stderr)")
        let titles = try #require(try a.json("reminders") as? [[String: Any]]).compactMap { $0["title"] as? String }.sorted()
        #expect(titles == ["One", "Three", "Two (edited)"])
        #expect(try view(a) == view(b))
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
    }

    /// Every calendar's answer unreadable (a proxy garbling each REPORT): the sync said "in step,
    /// nothing to move" and exited 0. A sync that failed says so and exits non-zero.
    @Test func aSyncWhereEveryCalendarFailedIsAFailure() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let switchFile = FileManager.default.temporaryDirectory.appendingPathComponent("chime-garble-\(UUID().uuidString)").path
        let (proxy, proxied) = try home.behindProxy("garble-reports:" + switchFile)
        defer { kill(proxy.processIdentifier, SIGKILL); proxy.waitUntilExit(); unlink(switchFile) }
        let a = StoreSession()
        let added = try proxied.addAccountOnceUp("home", to: a)
        #expect(added.status == 0, "\(added.stderr)")
        // Both calendars change on the server (another machine), so that the next pass asks each for
        // its changes, and each answer is garbled.
        let b = StoreSession()
        #expect(try home.addAccount("laptop", to: b).status == 0)
        _ = try b.add("reminder", "Changed there", "--list", "Todo")
        _ = try b.add("event", "Changed there too", "--start", "2026-11-23T09:00", "--calendar", "Work")
        _ = try sync(b, "laptop")
        FileManager.default.createFile(atPath: switchFile, contents: Data())
        let failed = try a.run("account", "sync", "home")
        #expect(failed.status != 0, "\(failed.stdout)\(failed.stderr)")
        #expect(!failed.stdout.contains("in step"), "\(failed.stdout)")
        #expect(failed.stderr.contains("no calendar could be synced"), "\(failed.stderr)")
    }

    /// An event moved to another calendar of the account is never off the server: on a server
    /// that keeps each UID once per calendar home (as Cyrus, Fastmail's server, does: the
    /// harness's Radicale behind a proxy that refuses a second copy with 403 no-uid-conflict) it
    /// goes over with a WebDAV MOVE; a second machine finds it in the new calendar only.
    @Test(arguments: [false, true]) func anEventMovedBetweenCalendarsIsNeverOffTheServer(uniqueUIDs: Bool) async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        try await home.makeCalendar("family", title: "Family", components: ["VEVENT"])
        let proxied = uniqueUIDs ? try home.behindProxy("unique-uids") : nil
        defer { if let proxy = proxied?.process { kill(proxy.processIdentifier, SIGKILL); proxy.waitUntilExit() } }
        let through = proxied?.home ?? home
        let a = StoreSession(), b = StoreSession()
        let added = try through.addAccountOnceUp("home", to: a)
        #expect(added.status == 0, "\(added.stderr)")
        let dinner = try a.add("event", "Dinner at Rosa's", "--start", "2026-12-05T19:00", "--calendar", "Work")
        #expect(try sync(a, "home").stdout.contains("1 sent"))
        #expect(try a.run("edit", dinner, "--calendar", "Family").status == 0)
        let moved = try sync(a, "home")
        #expect(moved.stdout.contains("1 sent"), "\(moved.stdout)\(moved.stderr)")
        if uniqueUIDs { #expect((moved.stdout + moved.stderr).contains("moved here from Work"), "\(moved.stdout)\(moved.stderr)") }
        func onServer(_ calendar: String) async throws -> [String] {
            try await home.members(of: calendar).values.compactMap { text in
                text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
            }
        }
        #expect(try await onServer("work") == [])
        #expect(try await onServer("family") == ["Dinner at Rosa's"])
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let there = try #require(try b.json("agenda", "--from", "2026-12-05", "--days", "1") as? [[String: Any]])
        #expect(there.map { "\($0["title"] as? String ?? "?") in \($0["calendar"] as? String ?? "?")" } == ["Dinner at Rosa's in Family"])
        // A second sync has nothing left to do.
        let again = try sync(a, "home")
        #expect(again.stdout.contains("in step, nothing to move"), "\(again.stdout)\(again.stderr)")
    }

    /// With a first account, what is added without --calendar goes to one of its calendars (not to
    /// a calendar on this machine only), and so reaches the other machine; `calendar default` says
    /// where and changes it.
    @Test func newItemsGoWhereTheOtherMachineSeesThem() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        try await home.makeCalendar("tasks", title: "Tasks", components: ["VTODO"])
        let a = StoreSession(), b = StoreSession()
        _ = try a.add("event", "Made before the account", "--start", "2026-12-04T09:00")
        let added = try home.addAccount("home", to: a)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout.contains("New events go to \"Work\" on home") && added.stdout.contains("New reminders go to \"Tasks\" on home"),
            "\(added.stdout)")
        _ = try a.add("event", "Dentist", "--start", "2026-12-05T10:00")
        _ = try a.add("reminder", "Call the bank", "--due", "2026-12-05T12:00")
        #expect(try sync(a, "home").stdout.contains("2 sent"))
        #expect(try home.addAccount("laptop", to: b).status == 0)
        let agenda = try #require(try b.json("agenda", "--from", "2026-12-04", "--days", "2") as? [[String: Any]])
        #expect(agenda.compactMap { $0["title"] as? String } == ["Dentist"], "the event made before the account stays on A only")
        let reminders = try #require(try b.json("reminders") as? [[String: Any]])
        #expect(reminders.compactMap { $0["title"] as? String } == ["Call the bank"])
        let shown = try a.run("calendar", "default")
        #expect(shown.stdout.contains("New events go to \"Work\" (account home)"), "\(shown.stdout)")
        let back = try a.run("calendar", "default", "Calendar")
        #expect(back.status == 0 && back.stdout.contains("New events go to \"Calendar\" (on this machine only)"), "\(back.stdout)\(back.stderr)")
    }

    /// A server without RFC 6578 (the harness's Radicale behind a proxy that refuses
    /// sync-collection with 403): every pass lists the members' ETags with PROPFIND instead, and
    /// changes, additions and removals made on the server still arrive, once each.
    @Test func aServerWithoutSyncCollectionIsSyncedByListingEveryMember() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let (proxy, limited) = try home.behindProxy("no-sync-collection")
        defer { kill(proxy.processIdentifier, SIGKILL); proxy.waitUntilExit() }
        let a = StoreSession(), b = StoreSession()
        let added = try limited.addAccountOnceUp("home", to: a)
        #expect(added.status == 0, "\(added.stderr)")
        _ = try a.add("reminder", "One", "--list", "Todo")
        let sent = try sync(a, "home")
        #expect(sent.stdout.contains("1 sent") && (sent.stdout + sent.stderr).contains("does not list changes"), "\(sent.stdout)\(sent.stderr)")

        #expect(try home.addAccount("laptop", to: b).status == 0)
        let one = try #require((try b.json("reminders") as? [[String: Any]])?.first { $0["title"] as? String == "One" }?["id"] as? String)
        #expect(try b.run("edit", one, "--title", "One (edited)").status == 0)
        _ = try b.add("reminder", "Two", "--list", "Todo")
        _ = try sync(b, "laptop")
        _ = try sync(a, "home")
        func titles(_ s: StoreSession) throws -> [String] {
            try #require(try s.json("reminders") as? [[String: Any]]).compactMap { $0["title"] as? String }.sorted()
        }
        #expect(try titles(a) == ["One (edited)", "Two"])
        let two = try #require((try b.json("reminders") as? [[String: Any]])?.first { $0["title"] as? String == "Two" }?["id"] as? String)
        #expect(try b.run("remove", two).status == 0)
        _ = try sync(b, "laptop")
        _ = try sync(a, "home")
        #expect(try titles(a) == ["One (edited)"])
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
    }

    @Test func theDaemonSyncsAtStartAndSoonAfterALocalChange() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("todo", title: "Todo", components: ["VTODO"])
        let a = StoreSession(), b = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        #expect(try home.addAccount("laptop", to: b).status == 0)
        _ = try b.add("reminder", "From the laptop", "--list", "Todo")
        _ = try sync(b, "laptop")
        let config = a.folder + "/config/chime"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "[sync]\nafter_change_seconds = 1\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(store: a.path, arguments: ["--notifier", "stdout", "--location", "none"], folder: a.folder)
        defer { daemon.stop() }
        func titles(_ s: StoreSession) -> [String] {
            ((try? s.json("reminders")) as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
        }
        // At start: the server's reminder arrives without any command.
        #expect(daemon.wait(timeout: 20) { _ in titles(a).contains("From the laptop") }, "\(daemon.stderrText)")
        // A local change goes out a second or so later.
        _ = try a.add("reminder", "From the desktop", "--list", "Todo")
        var pushed = false
        for _ in 0..<100 where !pushed {
            pushed = try await home.members(of: "todo").values.contains { $0.contains("SUMMARY:From the desktop") }
            if !pushed { usleep(100_000) }
        }
        #expect(pushed, "\(daemon.stderrText)")
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText.contains("synced"), "\(daemon.stderrText)")
        // The pass after the change lists no calendar home (the start's pass did): one
        // sync-collection and one PUT.
        let pushLine = daemon.stderrText.split(separator: "\n").first { $0.contains("synced") && $0.contains("pushed=1") }
        #expect(pushLine?.contains("requests=2") == true, "\(daemon.stderrText)")
    }

    /// A server that let one UID be stored under two names (Radicale refuses the PUT; its folder
    /// does not): one item here, shown from the first name; edits go to that name only; the other
    /// copy is named in a note and left alone; and when the first goes, the second shows the item.
    @Test func oneUIDUnderTwoNamesIsOneItemAndNeitherCopyIsLost() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let client = DAVClient(user: home.user, password: home.password)
        let event =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:dup-uid-1\r\n"
            + "DTSTAMP:20261201T000000Z\r\nDTSTART:20261210T100000Z\r\nDTEND:20261210T110000Z\r\nSUMMARY:Review\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let put = try await client.send(
            "PUT", home.homeURL.appendingPathComponent("work/a-first.ics"), body: event,
            headers: ["Content-Type": "text/calendar"])
        #expect(put.status == 201)
        // The second name, written into Radicale's folder behind its UID check.
        let users = try #require(ProcessInfo.processInfo.environment["CALDAV_USERS"])
        let folder = (users as NSString).deletingLastPathComponent + "/collections/collection-root/\(home.user)/work/"
        try event.replacingOccurrences(of: "SUMMARY:Review", with: "SUMMARY:Review (second copy)")
            .write(toFile: folder + "b-second.ics", atomically: true, encoding: .utf8)

        let a = StoreSession()
        let added = try home.addAccount("home", to: a)
        #expect(added.status == 0 && added.stderr.contains("b-second.ics"), "\(added.stdout)\(added.stderr)")
        func titles() throws -> [String] {
            try #require(try a.json("agenda", "--from", "2026-12-10", "--days", "1") as? [[String: Any]]).compactMap { $0["title"] as? String }
        }
        #expect(try titles() == ["Review"])
        // An edit goes to the first name, and the sync says it is in step.
        #expect(try a.run("edit", "Review", "--title", "Design review").status == 0)
        let pushed = try sync(a, "home")
        #expect(pushed.stdout.contains("1 sent") && !pushed.stderr.contains("HTTP"), "\(pushed.stdout)\(pushed.stderr)")
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
        let onServer = try await home.members(of: "work")
        #expect(onServer.count == 2)
        #expect(onServer.first { $0.key.hasSuffix("a-first.ics") }?.value.contains("SUMMARY:Design review") == true, "\(onServer)")
        #expect(onServer.first { $0.key.hasSuffix("b-second.ics") }?.value.contains("SUMMARY:Review (second copy)") == true, "\(onServer)")
        #expect(try titles() == ["Design review"])
        // The first name removed by another client: the second copy shows the item, nothing is sent back.
        let removed = try await client.send("DELETE", home.homeURL.appendingPathComponent("work/a-first.ics"))
        #expect(removed.status == 204 || removed.status == 200)
        _ = try sync(a, "home")
        #expect(try titles() == ["Review (second copy)"])
        #expect(try await home.members(of: "work").count == 1)
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
    }

    /// Who "I" am comes from the server (RFC 6638 calendar-user-address-set, set on Xandikos by
    /// PROPPATCH as a server admin would), with no configuration: a meeting declined by that
    /// address does not ring, one accepted does.
    @Test func theServersAddressesSayWhoIAmSoADeclinedMeetingDoesNotRing() async throws {
        let home = try CalDAVHome.on(.xandikos)
        let client = DAVClient(user: home.user, password: home.password)
        let principal = URL(string: home.url)!.appendingPathComponent("alice/")
        let set = try await client.send(
            "PROPPATCH", principal,
            body: """
                <?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
                <C:calendar-user-address-set><D:href>mailto:Ana.Lima@example.org</D:href><D:href>mailto:ana@work.example</D:href></C:calendar-user-address-set>
                </D:prop></D:set></D:propertyupdate>
                """)
        #expect(set.status == 207, "\(set.text)")
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        func meeting(_ uid: String, _ title: String, hour: Int, answer: String) -> String {
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "BEGIN:VEVENT",
                "DTSTART:20261208T\(hour)0000Z", "DTEND:20261208T\(hour)3000Z", "DTSTAMP:20261201T080000Z",
                "ORGANIZER;CN=Bob Stone:mailto:bob.stone@example.org", "UID:\(uid)",
                "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=\(answer);CN=Ana Lima:mailto:ana.lima@example.org",
                "SUMMARY:\(title)", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT10M", "END:VALARM",
                "END:VEVENT", "END:VCALENDAR", ""
            ].joined(separator: "\r\n")
        }
        for (uid, title, hour, answer) in [("m-accepted", "Accepted review", 10, "ACCEPTED"), ("m-declined", "Declined sync", 12, "DECLINED")] {
            let put = try await client.send(
                "PUT", home.homeURL.appendingPathComponent("work/\(uid).ics"), body: meeting(uid, title, hour: hour, answer: answer),
                headers: ["Content-Type": "text/calendar"])
            #expect((200..<300).contains(put.status), "\(put.status) \(put.text)")
        }
        let a = StoreSession(now: "2026-12-05T12:00:00Z")
        try FileManager.default.createDirectory(atPath: a.folder + "/no-config", withIntermediateDirectories: true)
        var env = a.environment
        env["XDG_CONFIG_HOME"] = a.folder + "/no-config"
        #expect(
            try CLI.run(
                ["account", "add", "work", "--url", home.url, "--user", home.user, "--password-command", "echo \(home.password)"],
                environment: env
            ).status == 0)
        let r = try CLI.run(["alarms", "--from", "2026-12-08T00:00:00Z", "--hours", "24"], environment: env)
        #expect(r.stdout.contains("Accepted review") && !r.stdout.contains("Declined sync"), "\(r.stdout)\(r.stderr)")
        #expect(try CLI.run(["show", "Declined sync"], environment: env).stdout.contains("you (declined, does not ring)"))
    }

    /// A change to someone else's invitation stays on this machine (servers refuse an attendee's
    /// edit, or pass it on to the organiser): not sent, said so, and kept as a conflict when the
    /// organiser's next update is taken, never lost under it.
    @Test func anEditToSomeoneElsesInvitationStaysHereAndIsKeptWhenTheOrganiserUpdatesIt() async throws {
        let home = try CalDAVHome.on(.xandikos)
        let client = DAVClient(user: home.user, password: home.password)
        // Who the server takes the account for: Ana here; Bob, the organiser, for his update below.
        func serverAddress(_ address: String) async throws {
            let set = try await client.send(
                "PROPPATCH", URL(string: home.url)!.appendingPathComponent("alice/"),
                body: """
                    <?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
                    <C:calendar-user-address-set><D:href>mailto:\(address)</D:href></C:calendar-user-address-set>
                    </D:prop></D:set></D:propertyupdate>
                    """)
            #expect(set.status == 207, "\(set.text)")
        }
        try await serverAddress("ana.lima@example.org")
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        func meeting(title: String, sequence: Int) -> String {
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "BEGIN:VEVENT",
                "DTSTART:20261208T100000Z", "DTEND:20261208T103000Z", "DTSTAMP:20261201T080000Z", "SEQUENCE:\(sequence)",
                "ORGANIZER;CN=Bob Stone:mailto:bob.stone@example.org", "UID:m-review",
                "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Ana Lima:mailto:ana.lima@example.org",
                "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Bob Stone:mailto:bob.stone@example.org",
                "SUMMARY:\(title)", "END:VEVENT", "END:VCALENDAR", ""
            ].joined(separator: "\r\n")
        }
        let href = home.homeURL.appendingPathComponent("work/m-review.ics")
        #expect(
            (200..<300).contains(
                try await client.send(
                    "PUT", href, body: meeting(title: "Budget review", sequence: 0),
                    headers: ["Content-Type": "text/calendar"]
                ).status))
        // The user's own meeting beside it, to show their edits still go out.
        let a = StoreSession(now: "2026-12-05T12:00:00Z")
        #expect(try home.addAccount("work", to: a).status == 0)
        let own = try a.add("event", "My 1:1", "--start", "2026-12-09 10:00", "--calendar", "Work")
        _ = try sync(a, "work")

        #expect(try a.run("edit", "Budget review", "--location", "Room 9", "--alarm", "15m").status == 0)
        #expect(try a.run("edit", own, "--location", "Cafe").status == 0)
        let r = try sync(a, "work")
        #expect(r.stdout.contains("1 change(s) to invitations organised by others kept on this machine only"), "\(r.stdout)")
        #expect(r.stderr.contains("Budget review is Bob Stone's invitation: your change stays on this machine"), "\(r.stderr)")
        let copies = try await home.members(of: "work").values.map { $0.replacingOccurrences(of: "\r\n ", with: "") }
        #expect(copies.contains { $0.contains("UID:m-review") && !$0.contains("Room 9") && !$0.contains("VALARM") }, "\(copies)")
        #expect(copies.contains { $0.contains("SUMMARY:My 1:1") && $0.contains("LOCATION:Cafe") }, "the user's own edit goes out: \(copies)")
        #expect(try sync(a, "work").stdout.contains("nothing to move"), "held once, not again on every pass")

        // Sent anyway, the server would refuse it: Xandikos lets an attendee change only their own
        // ATTENDEE line (RFC 6638 §3.1).
        let refused = try await client.send(
            "PUT", href,
            body: meeting(title: "Budget review", sequence: 0)
                .replacingOccurrences(of: "SUMMARY:", with: "LOCATION:Room 9\r\nSUMMARY:"), headers: ["Content-Type": "text/calendar"])
        #expect(refused.status == 412 && refused.text.contains("attendee-allowed"), "\(refused.status) \(refused.text)")

        // The organiser renames it (written here as Bob's server would): their version is taken,
        // and the user's, with the place and the alarm, is kept among the conflicts.
        try await serverAddress("bob.stone@example.org")
        let update = try await client.send(
            "PUT", href, body: meeting(title: "Budget review (Q1)", sequence: 1),
            headers: ["Content-Type": "text/calendar"])
        #expect((200..<300).contains(update.status), "\(update.status) \(update.text)")
        _ = try sync(a, "work")
        let show = try a.run("show", "Budget review (Q1)").stdout
        #expect(show.contains("Budget review (Q1)") && !show.contains("Room 9"), "\(show)")
        let conflicts = try #require(try a.json("account", "conflicts") as? [[String: Any]])
        #expect(
            conflicts.count == 1 && (conflicts.first?["what"] as? String)?.contains("the organiser changed this invitation") == true,
            "\(conflicts)")
        let kept = (conflicts.first?["lost_copy"] as? String ?? "").replacingOccurrences(of: "\n ", with: "")
        #expect(kept.contains("LOCATION:Room 9") && kept.contains("TRIGGER:-PT15M"), "\(kept)")
        let after = try await client.send("GET", href).text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(after.contains("SUMMARY:Budget review (Q1)") && !after.contains("Room 9"), "\(after)")
        #expect(try sync(a, "work").stdout.contains("nothing to move"))
    }

    /// The organiser cancels a meeting on the server: after a sync it does not ring (`alarms
    /// --all` says why) and the agenda marks it. A meeting the user organises, edited here, goes
    /// out with every attendee parameter as it came.
    @Test func aCancellationBySyncSilencesTheMeetingAndAttendeeLinesLeaveAsTheyCame() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let client = DAVClient(user: home.user, password: home.password)
        let attendees = [
            "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=TRUE;CN=Bob Stone;X-NUM-GUESTS=0:mailto:bob@example.org",
            "ATTENDEE;CUTYPE=ROOM;ROLE=NON-PARTICIPANT;PARTSTAT=ACCEPTED;SCHEDULE-STATUS=1.2;CN=Atlas:mailto:atlas@example.org",
            "ATTENDEE;PARTSTAT=DELEGATED;DELEGATED-TO=\"mailto:cy@example.org\";CN=Dee:mailto:dee@example.org"
        ]
        func meeting(_ uid: String, _ title: String, organizer: String, status: String) -> String {
            ([
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Nextcloud calendar//EN", "BEGIN:VEVENT", "UID:\(uid)",
                "DTSTART:20261208T100000Z", "DTEND:20261208T103000Z", "DTSTAMP:20261201T080000Z", "SUMMARY:\(title)", "STATUS:\(status)",
                "ORGANIZER;CN=Organiser:mailto:\(organizer)"
            ] + attendees
                + ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        }
        let theirs = home.homeURL.appendingPathComponent("work/m-plan.ics")
        #expect(
            (200..<300).contains(
                try await client.send(
                    "PUT", theirs, body: meeting("m-plan", "Planning", organizer: "bob@example.org", status: "CONFIRMED"),
                    headers: ["Content-Type": "text/calendar"]
                ).status))
        #expect(
            (200..<300).contains(
                try await client.send(
                    "PUT", home.homeURL.appendingPathComponent("work/m-mine.ics"),
                    body: meeting("m-mine", "My review", organizer: "ana@example.org", status: "CONFIRMED"),
                    headers: ["Content-Type": "text/calendar"]
                ).status))
        let a = StoreSession(now: "2026-12-05T12:00:00Z")
        let config = a.folder + "/config"
        try FileManager.default.createDirectory(atPath: config + "/chime", withIntermediateDirectories: true)
        try "[identity]\naddresses = [\"ana@example.org\"]\n".write(toFile: config + "/chime/config.toml", atomically: true, encoding: .utf8)
        var env = a.environment
        env["XDG_CONFIG_HOME"] = config
        #expect(try home.addAccount("work", to: a).status == 0)
        let window = ["--from", "2026-12-08T00:00:00Z", "--hours", "24"]
        #expect(try CLI.run(["alarms"] + window, environment: env).stdout.contains("Planning"))

        #expect(
            (200..<300).contains(
                try await client.send(
                    "PUT", theirs, body: meeting("m-plan", "Planning", organizer: "bob@example.org", status: "CANCELLED"),
                    headers: ["Content-Type": "text/calendar"]
                ).status))
        #expect(try CLI.run(["account", "sync", "work"], environment: env).status == 0)
        #expect(!(try CLI.run(["alarms"] + window, environment: env).stdout.contains("Planning")))
        #expect(try CLI.run(["alarms", "--all"] + window, environment: env).stdout.contains("(cancelled: does not ring)"))
        #expect(try CLI.run(["agenda", "--from", "2026-12-08", "--days", "1"], environment: env).stdout.contains("Planning (cancelled)"))

        // The user organises this one: the edit goes out, the attendee lines unchanged.
        #expect(try CLI.run(["edit", "My review", "--title", "My review (v2)"], environment: env).status == 0)
        let r = try CLI.run(["account", "sync", "work"], environment: env)
        #expect(r.stdout.contains("1 sent") && !r.stdout.contains("kept on this machine"), "\(r.stdout)\(r.stderr)")
        let copy = try await client.send("GET", home.homeURL.appendingPathComponent("work/m-mine.ics")).text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(copy.contains("SUMMARY:My review (v2)"), "\(copy)")
        // Radicale stores parameters in its own order: each line has the same parameters and value.
        func parts(_ line: Substring) -> Set<Substring>? {
            guard let cut = line.range(of: ":mailto:", options: .backwards) else { return nil }
            return Set(line[..<cut.lowerBound].split(separator: ";") + [line[cut.lowerBound...]])
        }
        let stored = Set(copy.split(separator: "\r\n").filter { $0.hasPrefix("ATTENDEE") }.compactMap(parts))
        #expect(stored == Set(attendees.map { parts(Substring($0))! }), "\(copy)")
    }

    @Test func nothingOnTheServerIsLostByRemovingThingsHere() async throws {
        let home = try CalDAVHome.claim()
        try await home.makeCalendar("work", title: "Work", components: ["VEVENT"])
        let a = StoreSession()
        #expect(try home.addAccount("home", to: a).status == 0)
        _ = try a.add("event", "Dentist", "--start", "2026-12-03T14:00", "--calendar", "Work")
        _ = try sync(a, "home")
        // Removing a synced calendar here would remove its events on the server: refused.
        let remove = try a.run("calendar", "remove", "Work", "--yes")
        #expect(remove.status != 0 && remove.stderr.contains("chime account remove home"), "\(remove.stderr)")
        #expect(try sync(a, "home").stdout.contains("nothing to move"))
        #expect(try await home.members(of: "work").count == 1)
        // An account with changes the server has not had is not removed without saying so.
        _ = try a.add("event", "Unsent", "--start", "2026-12-04T14:00", "--calendar", "Work")
        let refused = try a.run("account", "remove", "home")
        #expect(refused.status != 0 && refused.stderr.contains("--discard-unsent"), "\(refused.stderr)")
        _ = try sync(a, "home")
        #expect(try a.run("account", "remove", "home").status == 0)
        #expect(try await home.members(of: "work").count == 2)
        #expect(try a.run("agenda", "--from", "2026-12-01", "--days", "7").stdout.contains("No events"))
    }
}
