import ChimeCore
@testable import ChimeStore
import Testing

/// Per-app access decisions (EventKit's authorization status), kept in the store.
@Suite("Access decisions")
struct AccessDecisionTests {
    @Test func anAppIsNotDeterminedUntilDecidedAndEachEntityTypeIsSeparate() throws {
        let t = try TestStore()
        let app = "flatpak:org.example.Planner"
        #expect(try t.store.access.authorizationStatus(appID: app, for: .event) == .notDetermined)
        try t.store.access.setAuthorization(.authorized, appID: app, for: .event, decidedBy: "prompt")
        #expect(try t.store.access.authorizationStatus(appID: app, for: .event) == .authorized)
        #expect(try t.store.access.authorizationStatus(appID: app, for: .reminder) == .notDetermined)
        #expect(try t.store.access.authorizationStatus(appID: "exe:/usr/bin/other", for: .event) == .notDetermined)
    }

    @Test func aLaterDecisionReplacesTheEarlierAndResetForgetsIt() throws {
        let t = try TestStore()
        let app = "exe:/usr/bin/python3.11"
        try t.store.access.setAuthorization(.authorized, appID: app, for: .reminder, decidedBy: "prompt")
        try t.store.access.setAuthorization(.denied, appID: app, for: .reminder, decidedBy: "command")
        let decisions = try t.store.access.decisions()
        #expect(decisions.map(\.status) == [.denied])
        #expect(decisions.first?.decidedBy == "command")
        try t.store.access.setAuthorization(.authorized, appID: app, for: .event, decidedBy: "prompt")
        #expect(try t.store.access.resetAuthorization(appID: app, for: .reminder) == 1)
        #expect(try t.store.access.decisions().map(\.entityType) == [.event])
        #expect(try t.store.access.resetAuthorization(appID: app) == 1)
        #expect(try t.store.access.decisions().isEmpty)
        #expect(try t.store.access.resetAuthorization(appID: app) == 0)
    }

    @Test func useIsNotedAtMostOnceAMinute() throws {
        let t = try TestStore()
        var now = t.clock.now
        let app = "unit:app-gnome-org.gnome.Maps"
        try t.store.access.setAuthorization(.authorized, appID: app, for: .event, decidedBy: "prompt")
        try t.store.access.noteUsed(appID: app, for: .event)
        #expect(try t.store.access.decisions().first?.lastUsedAt == now)
        let first = now
        now = now.adding(30)
        t.clock.set(now)
        try t.store.access.noteUsed(appID: app, for: .event)
        #expect(try t.store.access.decisions().first?.lastUsedAt == first)
        now = now.adding(60)
        t.clock.set(now)
        try t.store.access.noteUsed(appID: app, for: .event)
        #expect(try t.store.access.decisions().first?.lastUsedAt == now)
    }
}
