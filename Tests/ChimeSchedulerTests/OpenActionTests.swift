import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// Activating a notification ("Open", or a click on its body): the item's URL is opened when it is
/// http, https or mailto, never anything else; without such a URL the item is shown in full in a
/// notification of its own ("Show"); the alarm is acknowledged either way.
@Suite struct OpenActionTests {
    @Test func activatingOpensAnHTTPSURLAndAcknowledges() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Standup", start: at(2026, 11, 20, 13), alarms: [.relative(0)], url: " https://meet.example.org/standup ")
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let note = try #require(h.sink.delivered.first)
        #expect(note.openURL == "https://meet.example.org/standup")
        #expect(note.label(for: .default) == "Open")
        #expect(h.opener.opened.isEmpty)  // nothing opens by itself
        try h.scheduler.respond(NotificationResponse(keys: note.keys, kind: .activated))
        #expect(h.opener.opened == ["https://meet.example.org/standup"])
        #expect(try h.store.ledger.entries(for: note.keys)[note.keys[0]]?.state == .dismissed)
    }

    @Test func aMailtoURLIsOpenedToo() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Reply to Ann", start: at(2026, 11, 20, 13), alarms: [.relative(0)], url: "mailto:ann@example.org")
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .activated))
        #expect(h.opener.opened == ["mailto:ann@example.org"])
    }

    /// An imported file's URL is hostile input: `file:` (or any other scheme) is never handed to xdg-open.
    @Test(arguments: [
        "file:///etc/passwd", "FILE:/home/me/.ssh/id_ed25519", "javascript:alert(1)", "smb://host/share",
        "/usr/bin/xterm", "https://a.example/ x", "https:example.org", "http://", "-http://x"
    ])
    func aURLWithAnotherSchemeIsNeverOpened(url: String) throws {
        let h = try SchedulerHarness()
        try h.addEvent("Imported", start: at(2026, 11, 20, 13), alarms: [.relative(0)], url: url)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let note = try #require(h.sink.delivered.first)
        #expect(note.openURL == nil)
        #expect(note.label(for: .default) == "Show")
        try h.scheduler.respond(NotificationResponse(keys: note.keys, kind: .activated))
        #expect(h.opener.opened.isEmpty)
        // The URL is shown as text, in the item's details, and never linked or opened.
        #expect(h.sink.delivered.last?.body.contains("URL: \(url)") == true)
        #expect(try h.store.ledger.entries(for: note.keys)[note.keys[0]]?.state == .dismissed)
    }

    @Test func withoutAURLActivatingShowsTheItemAndAcknowledges() throws {
        let h = try SchedulerHarness()
        var e = try h.addEvent("Lunch", start: at(2026, 11, 20, 13), alarms: [.relative(0)])
        e.location = "Canteen, 2nd floor"
        e.notes = "Bring the receipts\nand the card"
        e = try h.store.save(e)
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        let note = try #require(h.sink.delivered.first)
        #expect(note.label(for: .default) == "Show")
        try h.scheduler.respond(NotificationResponse(keys: note.keys, kind: .activated))
        #expect(h.opener.opened.isEmpty)
        #expect(try h.store.ledger.entries(for: note.keys)[note.keys[0]]?.state == .dismissed)
        let details = try #require(h.sink.delivered.last)
        #expect(h.sink.delivered.count == 2)
        #expect(details.kind == AlarmNotification.detailsKind)
        #expect(details.keys.isEmpty && details.actions.isEmpty)
        #expect(details.summary == "Lunch")
        #expect(
            details.body == """
                Fri 2026-11-20 13:00–14:00
                Calendar: Calendar
                Location: Canteen, 2nd floor
                Notes: Bring the receipts
                and the card
                ID: \(e.identifier)
                """)
    }

    /// "You missed N alarms" stands for many items: activating it only acknowledges them.
    @Test func theMissedSummaryIsOnlyDismissed() throws {
        let summary = NotificationText.missedSummary([], zone: .utc)
        #expect(summary.label(for: .default) == "Dismiss")
    }

    /// Closing the notification (not activating it) never opens anything.
    @Test func dismissingDoesNotOpen() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Standup", start: at(2026, 11, 20, 13), alarms: [.relative(0)], url: "https://meet.example.org/x")
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.scheduler.respond(NotificationResponse(keys: h.sink.delivered[0].keys, kind: .dismissed))
        #expect(h.opener.opened.isEmpty)
    }

    @Test func theSchemeCheck() {
        #expect(OpenableURL.check("HTTPS://example.org/a?b=c#d") == "HTTPS://example.org/a?b=c#d")
        #expect(OpenableURL.check("http://example.org") == "http://example.org")
        #expect(OpenableURL.check("mailto:") == nil)
        #expect(OpenableURL.check("https://example.org/\u{202E}fdp.exe") == nil)  // bidi override
        #expect(OpenableURL.check("https://example.org/\nfile:///etc") == nil)
        #expect(OpenableURL.check("") == nil)
        #expect(OpenableURL.check(nil) == nil)
        #expect(OpenableURL.check("https://" + String(repeating: "a", count: 5000)) == nil)
    }

    /// A calendar's `mailto:` link reached xdg-open with `attach=/etc/shadow`, which mail programs
    /// read as a file to attach: only the message's own fields go through.
    @Test func aMailtoLinkLosesItsAttachments() {
        #expect(OpenableURL.check("mailto:ann@example.org?attach=/etc/shadow") == "mailto:ann@example.org")
        #expect(
            OpenableURL.check("mailto:ann@example.org?subject=Hi&ATTACHMENT=file:///home/me/.ssh/id_ed25519&body=See%20you")
                == "mailto:ann@example.org?subject=Hi&body=See%20you")
        #expect(OpenableURL.check("mailto:ann@example.org?%61ttach=/etc/passwd&cc=bob@example.org") == "mailto:ann@example.org?cc=bob@example.org")
        #expect(OpenableURL.check("mailto:ann@example.org") == "mailto:ann@example.org")
    }
}
