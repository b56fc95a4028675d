import ChimeCore
import ChimeDesktop
import ChimeScheduler
import Foundation
import Synchronization
import ChimeTestKit
import Testing

/// `LibnotifySink` against a real notification server: dunst 1.9 in the sandbox of
/// `Tests/harness/with-services.sh`. Serialized: one dunst is shared, and a process has one sink at a time.
@Suite(.serialized) struct LibnotifySinkTests {
    static let key = FiringKey(item: "6F1C-desktop-test", occurrence: Instant(secondsSince1970: 1_796_112_000), alarm: "-900")

    /// A summary no other test (or earlier run in the same sandbox) uses, to find it in dunst's log.
    static func uniqueSummary(_ text: String) -> String {
        "\(text) \(UUID().uuidString.prefix(8))"
    }

    static func reminder(
        _ summary: String, body: String = "Room 3",
        actions: [AlarmNotification.Action] = [.default, .complete, .snooze(.minutes(10)), .snooze(.minutes(60))],
        openURL: String? = nil
    ) -> AlarmNotification {
        AlarmNotification(
            keys: [key], fireAt: key.occurrence, summary: summary, body: body, urgency: .critical,
            category: "x-chime.reminder", actions: actions, kind: "reminder", openURL: openURL)
    }

    /// Delivers `n` and waits until dunst shows exactly one notification.
    static func show(_ n: AlarmNotification, on sink: LibnotifySink, in sandbox: ServiceSandbox) async throws {
        try sink.deliver(n, deliveredAtMilliseconds: n.fireAt.secondsSince1970 * 1000)
        let shown = try await poll { try sandbox.displayedCount() == 1 }
        try #require(shown, "dunst never displayed \(n.summary)")
    }

    @Test func connectReadsTheServersNameAndCapabilities() throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        #expect(sink.name == "libnotify")
        #expect(sink.serverName == "dunst")
        #expect(sink.serverVersion.hasPrefix("1."))
        #expect(sink.supportsActions)
        #expect(sink.server.capabilities.contains("body"))
    }

    @Test func aSecondSinkInTheSameProcessIsRefusedUntilTheFirstShutsDown() throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let first = try LibnotifySink.connect()
        #expect(throws: DeliveryError.self) { _ = try LibnotifySink.connect() }
        first.shutdown()
        let second = try LibnotifySink.connect()
        second.shutdown()
    }

    @Test func deliveredNotificationReachesTheServerWithAllItsAttributes() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        let summary = Self.uniqueSummary("Dentist")
        try await Self.show(Self.reminder(summary, body: "14:00–15:00\nR&D <sync>"), on: sink, in: sandbox)

        let fields = try #require(
            try await sandbox.loggedNotification(summary: summary),
            "dunst's rule script never logged \(summary)")
        #expect(fields["app"] == "Chime")
        #expect(fields["urgency"] == "CRITICAL")
        #expect(fields["category"] == "x-chime.reminder")
        #expect(fields["desktop_entry"] == "chime")
        // The icon by its theme name, "chime": dunst finds it in the harness's icon_path (Config/).
        #expect(fields["icon"]?.hasSuffix("/Config/chime.svg") == true, "\(fields)")
        #expect(fields["timeout"] == "0")  // never expires by itself
        // The newline is kept. A server advertising "body-markup" gets the plain text escaped
        // (dunst 1.9 does not advertise it, so there the body arrives as written).
        let expectedBody = sink.server.supportsBodyMarkup ? #"14:00–15:00\nR&amp;D &lt;sync&gt;"# : #"14:00–15:00\nR&D <sync>"#
        #expect(fields["body"] == expectedBody)
        try sandbox.dunstctl("close-all")
    }

    @Test func clickingButtonsReportsCompleteSnoozeAndActivatedAndClosesTheNotification() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }

        // dunst's context menu lists every action as "#<label> (<summary>) [<id>,<key>]"; the fake dmenu
        // picks the line with the key. (`dunstctl action 0` would invoke "default" directly.)
        for (key, expected) in [
            ("complete", NotificationResponse(keys: [Self.key], kind: .complete)),
            ("snooze:10m", NotificationResponse(keys: [Self.key], kind: .snooze, snooze: .minutes(10)))
        ] {
            try await Self.show(Self.reminder(Self.uniqueSummary("Standup")), on: sink, in: sandbox)
            #expect(ServiceSandbox.pickInContextMenu(",\(key)]", run: sandbox.runDirectory), "no menu offered \(key)")
            let response = await nextResponse(of: sink)
            #expect(response == expected, "clicking \(key)")
            let closed = try await poll { try sandbox.displayedCount() == 0 }
            #expect(closed, "the sink closes a notification once one of its actions was clicked (\(key))")
        }

        try await Self.show(Self.reminder(Self.uniqueSummary("Call")), on: sink, in: sandbox)
        try sandbox.dunstctl("action", "0")
        #expect(await nextResponse(of: sink) == NotificationResponse(keys: [Self.key], kind: .activated))
        #expect(try await poll { try sandbox.displayedCount() == 0 })

        // Closing them ourselves (reason "closed by call") must not come back as a dismissal.
        sink.shutdown()
        var afterwards: [NotificationResponse] = []
        for await response in sink.responses { afterwards.append(response) }
        #expect(afterwards.isEmpty)
    }

    /// Each snooze choice is its own entry in dunst's context menu; picking "Snooze 1 h" reports that choice.
    @Test func choosingTheOneHourSnoozeInTheContextMenuReportsIt() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        let choices = try ["5m", "15m", "1h", "tomorrow 9:00"].map { try SnoozeChoice(parsing: $0) }
        let summary = Self.uniqueSummary("Laundry")
        try await Self.show(Self.reminder(summary, actions: [.default, .complete] + choices.map { .snooze($0) }), on: sink, in: sandbox)
        let menuLog = sandbox.runDirectory + "/dmenu-input.log"
        #expect(ServiceSandbox.pickInContextMenu("#Snooze 1 h (", run: sandbox.runDirectory), "no menu offered Snooze 1 h")
        let response = await nextResponse(of: sink)
        #expect(response == NotificationResponse(keys: [Self.key], kind: .snooze, snooze: choices[2]))
        #expect(try await poll { try sandbox.displayedCount() == 0 })
        let menu = try String(contentsOfFile: menuLog, encoding: .utf8).components(separatedBy: "---").last { $0.contains(summary) } ?? ""
        for (label, key) in [
            ("Snooze 5 min", "snooze:5m"), ("Snooze 15 min", "snooze:15m"), ("Snooze 1 h", "snooze:1h"),
            ("Snooze until tomorrow 9:00", "snooze:tomorrow 9:00"), ("Complete", "complete")
        ] {
            #expect(menu.contains("#\(label) (\(summary)) ["), "\(label) in \(menu)")
            #expect(menu.contains(",\(key)]"), "\(key) in \(menu)")
        }
    }

    @Test func closingFromTheServerReportsDismissed() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        try await Self.show(Self.reminder(Self.uniqueSummary("Gym")), on: sink, in: sandbox)
        try sandbox.dunstctl("close-all")
        #expect(await nextResponse(of: sink) == NotificationResponse(keys: [Self.key], kind: .dismissed))
    }

    /// The item was completed elsewhere: the notification leaves the screen, and that is not
    /// reported as the user's dismissal (the next answer heard is the next notification's).
    @Test func aWithdrawnNotificationLeavesTheScreenAndIsNoAnswer() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        try await Self.show(Self.reminder(Self.uniqueSummary("Call the bank")), on: sink, in: sandbox)
        sink.withdraw([FiringKey(item: "another", occurrence: Self.key.occurrence, alarm: "-900")])
        #expect(try await poll(timeout: .seconds(1)) { try sandbox.displayedCount() == 0 } == false, "withdrew another key's notification")
        sink.withdraw([Self.key])
        #expect(try await poll { try sandbox.displayedCount() == 0 })
        let other = FiringKey(item: "6F1C-desktop-other", occurrence: Self.key.occurrence, alarm: "-900")
        var next = Self.reminder(Self.uniqueSummary("Gym"))
        next.keys = [other]
        try await Self.show(next, on: sink, in: sandbox)
        try sandbox.dunstctl("close-all")
        #expect(await nextResponse(of: sink) == NotificationResponse(keys: [other], kind: .dismissed))
    }

    @Test func withoutActionsTheDefaultClickReportsNothing() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        try await Self.show(Self.reminder(Self.uniqueSummary("Info"), actions: []), on: sink, in: sandbox)
        _ = try? sandbox.dunstctl("action", "0")  // no action registered: nothing to report
        try sandbox.dunstctl("close-all")
        // The dismissal is the first and only thing reported.
        #expect(await nextResponse(of: sink) == NotificationResponse(keys: [Self.key], kind: .dismissed))
    }

    @Test func shutdownLeavesAlarmsOnScreenEndsResponsesAndRefusesDeliveries() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        try await Self.show(Self.reminder(Self.uniqueSummary("Flight")), on: sink, in: sandbox)

        sink.shutdown()
        sink.shutdown()  // idempotent
        var afterwards: [NotificationResponse] = []
        for await response in sink.responses { afterwards.append(response) }
        #expect(afterwards.isEmpty)
        // notify_uninit would close never-expiring notifications; the alarm must stay up.
        let stillShown = try await poll(timeout: .seconds(1)) { try sandbox.displayedCount() != 1 } == false
        #expect(stillShown)
        #expect(throws: DeliveryError.self) {
            try sink.deliver(Self.reminder("late"), deliveredAtMilliseconds: 0)
        }
        try sandbox.dunstctl("close-all")
    }

    /// At shutdown the alarm stays on screen, in place (same id), without buttons that would answer
    /// nobody, and says so in its body.
    @Test func shutdownReshowsNotificationsWithoutActionsAndSaysChimeStopped() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        let summary = Self.uniqueSummary("Pharmacy")
        try await Self.show(Self.reminder(summary, body: "Due 17:00"), on: sink, in: sandbox)
        sink.shutdown()

        // dunst's rule script logs the notification again when it is replaced: same id, new body. dunst
        // runs the script once per notification in a process of its own, so the two lines may land in
        // either order: each is told by its body, not by its place in the log.
        var lines: [Substring] = []
        _ = try await poll {
            let log = (try? String(contentsOfFile: sandbox.runDirectory + "/notifications.log", encoding: .utf8)) ?? ""
            lines = log.split(separator: "\n").filter { $0.contains("summary=\(summary)\t") }
            return lines.count >= 2
        }
        try #require(lines.count == 2, "dunst logged \(lines)")
        let original = lines.first { $0.contains("body=Due 17:00\t") }
        let reshown = lines.first { $0.contains("body=Due 17:00\\n(Chime stopped; its buttons are gone until systemctl --user start chime)\t") }
        try #require(original != nil && reshown != nil, "dunst logged \(lines)")
        let ids = [original, reshown].map { $0?.split(separator: "\t").first { $0.hasPrefix("id=") } }
        #expect(ids[0] != nil && ids[0] == ids[1], "replaced in place: \(ids)")
        #expect(try sandbox.displayedCount() == 1)

        // Its context menu offers none of its actions any more. dunst shows no menu at all when nothing
        // on screen has an action, so a second notification with actions is put beside it: once a menu
        // listing that one appears, the stopped one's absence from the same menu is a fact, not a wait.
        let menuLog = sandbox.runDirectory + "/dmenu-input.log"
        let before = (try? String(contentsOfFile: menuLog, encoding: .utf8)) ?? ""
        let witnessSink = try LibnotifySink.connect()
        defer { witnessSink.shutdown() }
        let witness = Self.uniqueSummary("Witness")
        try witnessSink.deliver(Self.reminder(witness), deliveredAtMilliseconds: 0)
        #expect(try await poll { try sandbox.displayedCount() == 2 }, "dunst never displayed \(witness)")
        var menu = "", attempts = 0
        let offered = try await poll(timeout: .seconds(20)) {
            menu = String(((try? String(contentsOfFile: menuLog, encoding: .utf8)) ?? "").dropFirst(before.count))
            if menu.contains("(\(witness)) [") { return true }
            if attempts % 20 == 0 { try sandbox.dunstctl("context") }  // about once a second
            attempts += 1
            return false
        }
        #expect(offered, "no menu offered \(witness): \(menu)")
        #expect(!menu.contains("(\(summary)) ["), "\(menu)")
        #expect(try sandbox.displayedCount() == 2)
        try sandbox.dunstctl("close-all")
    }

    /// Item text is text: markup from an imported title or notes is shown as written, never
    /// rendered (bold, hidden spans) nor turned into a link to open (`file:///etc/passwd`).
    @Test func markupInItemTextIsEscapedNotRendered() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        // dunst 1.9 advertises body-hyperlinks (not body-markup) and renders both.
        #expect(sink.server.supportsBodyMarkup)
        let summary = Self.uniqueSummary("Markup")
        try await Self.show(
            Self.reminder(summary, body: #"<b>bold</b> <span alpha="1%">hidden</span> <a href="file:///etc/passwd">click</a>"#),
            on: sink, in: sandbox)
        try sandbox.dunstctl("close-all")
        let history = try sandbox.dunstctl("history")
        let entry = try #require(history.components(separatedBy: "\"message\"").first { $0.contains(summary) && $0.contains("bold") })
        #expect(entry.contains("&lt;b&gt;bold&lt;/b&gt;"))
        #expect(entry.contains("&lt;a href="))
        #expect(!entry.contains("<b>bold</b>"))
        #expect(!entry.contains("<span"))
    }

    /// A notification too big for the bus breaks the connection libnotify uses; the sink opens a new
    /// one, so every later alarm is still shown (before, each failed with "The connection is closed").
    @Test func aBrokenConnectionIsReopenedForTheNextNotification() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let sink = try LibnotifySink.connect()
        defer { sink.shutdown() }
        let huge = String(repeating: "B", count: 50_000_000)
        var refusal: DeliveryError?
        do { try sink.deliver(Self.reminder("oversized", body: huge), deliveredAtMilliseconds: 0) } catch { refusal = error }
        // Refused twice: on the old connection, which the bus then closes, and on a reopened one.
        #expect(refusal?.message.contains("after reconnecting") == true, "\(refusal.map { String($0.message.prefix(300)) } ?? "accepted")")
        for title in ["after 1", "after 2"] {
            let summary = Self.uniqueSummary(title)
            try sink.deliver(Self.reminder(summary), deliveredAtMilliseconds: 0)
            #expect(try await sandbox.loggedNotification(summary: summary) != nil, "dunst never got \(summary)")
        }
        try sandbox.dunstctl("close-all")
    }

    /// Runs in a child process: GDBus caches the session bus per process, and the address must be
    /// wrong from the start.
    @Test func connectFailsQuicklyWhenNoSessionBusAnswers() async {
        await #expect(processExitsWith: .success) {
            setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/chime-test/session_bus_socket", 1)
            let start = ContinuousClock.now
            do throws(DeliveryError) {
                let sink = try LibnotifySink.connect()
                sink.shutdown()
                exit(2)
            } catch {
                guard error.message.hasPrefix("no notification server answers on the session bus: ") else { exit(3) }
            }
            exit(ContinuousClock.now - start < .seconds(3) ? 0 : 4)
        }
    }

    /// A bus without a notification server (the sandbox's private "system" bus stands in for such a
    /// session bus): connect names the D-Bus error instead of waiting for libnotify's 25 s timeout.
    @Test func connectFailsQuicklyWhenNothingOwnsTheNotificationsName() async {
        guard ServiceSandbox.current() != nil else { return }
        await #expect(processExitsWith: .success) {
            guard let bus = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] else { exit(5) }
            setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1)
            let start = ContinuousClock.now
            do throws(DeliveryError) {
                let sink = try LibnotifySink.connect()
                sink.shutdown()
                exit(2)
            } catch {
                guard error.message.hasPrefix("no notification server answers on the session bus: "),
                    error.message.contains("org.freedesktop.Notifications")
                else { exit(3) }
            }
            exit(ContinuousClock.now - start < .seconds(3) ? 0 : 4)
        }
    }

    /// dunst has no `sound` capability: an alarm that asks for a sound is handed to the sink's
    /// player (libcanberra in the daemon) once the server took it; a silent one is not.
    @Test func aSoundTheServerCannotPlayGoesToThePlayer() async throws {
        guard let sandbox = ServiceSandbox.current() else { return }
        try sandbox.dunstctl("close-all")
        let player = RecordingPlayer()
        let sink = try LibnotifySink.connect(soundPlayer: player)
        defer { sink.shutdown() }
        #expect(!sink.server.supportsSound)
        var loud = Self.reminder(Self.uniqueSummary("Kettle"))
        loud.soundName = "bell"
        #expect(sink.server.soundRoute(for: loud) == .player("bell"))
        #expect(sink.server.soundName(for: loud) == nil)  // no sound-name hint for dunst
        try await Self.show(loud, on: sink, in: sandbox)
        try sandbox.dunstctl("close-all")
        try await Self.show(Self.reminder(Self.uniqueSummary("Quiet")), on: sink, in: sandbox)
        #expect(player.played == ["bell"])
        try sandbox.dunstctl("close-all")
    }
}

/// A sound player that records the names it was asked to play.
final class RecordingPlayer: SoundPlayer {
    private let log = Mutex<[String]>([])
    func play(_ name: String) { log.withLock { $0.append(name) } }
    var played: [String] { log.withLock { $0 } }
}
