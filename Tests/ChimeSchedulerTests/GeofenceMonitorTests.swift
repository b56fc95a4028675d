import ChimeCore
import ChimeScheduler
import ChimeStore
import Foundation
import Testing

/// The geofence monitor with a real store, the scheduler's sink and ledger, in virtual time.
@Suite("Geofence monitor: arming from the store, delivery, persistence, completion")
struct GeofenceMonitorTests {
    static let grocery = StructuredLocation(title: "Grocery store", latitude: 52.5250, longitude: 13.4020, radius: 100)

    /// A point `metres` north of the grocery store.
    static func near(_ metres: Double) -> Coordinate {
        Coordinate(latitude: grocery.latitude + metres / Geodesy.metresPerDegree, longitude: grocery.longitude)
    }

    func fix(_ metres: Double, _ h: SchedulerHarness) -> LocationFix {
        LocationFix(coordinate: Self.near(metres), horizontalAccuracy: 5, timestampMilliseconds: h.clock.nowMilliseconds())
    }

    func monitor(_ h: SchedulerHarness, settings: GeofenceSettings = GeofenceSettings()) throws -> GeofenceMonitor {
        let m = GeofenceMonitor(store: h.store, settings: settings, zone: h.zone, providerName: "test")
        try m.load(now: h.clock.now())
        return m
    }

    /// One step of the daemon: a fix through the monitor, what fires through the scheduler.
    func feed(_ metres: Double, _ m: GeofenceMonitor, _ h: SchedulerHarness) throws {
        try h.scheduler.deliver(try m.process(fix(metres, h), now: h.clock.now()))
        h.clock.advance(to: h.clock.now().adding(10))
    }

    @Test func arrivingDeliversOnceThroughTheSinkAndTheLedger() throws {
        let h = try SchedulerHarness()
        let milk = try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        #expect(m.engine.count == 1)
        try feed(800, m, h)   // settles outside: nothing
        #expect(h.sink.delivered.isEmpty)
        try feed(40, m, h)
        #expect(h.sink.titles == ["Arrived: Grocery store — Buy milk"])
        let note = try #require(h.sink.delivered.first)
        #expect(note.actions == [.default, .complete, .snooze])
        #expect(note.category == "x-chime.reminder")
        #expect(note.keys.first?.item == milk.identifier)
        #expect(try h.store.ledgerEntries(for: note.keys)[note.keys[0]]?.state == .delivered)

        // Leaving and coming back: the same key, already delivered — the ledger keeps it at once.
        try feed(800, m, h)
        try feed(20, m, h)
        #expect(h.sink.delivered.count == 1)
        #expect(try h.store.lastLocationFix()?.provider == "test")
    }

    /// A restart while inside must not fire "arrive" again, even for a fence whose firing was
    /// never delivered (the saved state says inside).
    @Test func aRestartWhileInsideDoesNotFireAgain() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .leave)])
        try h.start()
        var m = try monitor(h)
        try feed(800, m, h)
        try feed(30, m, h)     // inside a "leave" fence: no firing, state saved
        #expect(h.sink.delivered.isEmpty)
        let saved = try h.store.geofenceStatuses()
        #expect(saved.values.map(\.state) == [.inside])

        try h.start()          // the daemon restarts
        m = try monitor(h)
        #expect(m.engine.status(of: saved.keys.first!)?.state == .inside)
        try feed(20, m, h)
        #expect(h.sink.delivered.isEmpty)
        try feed(600, m, h)
        #expect(h.sink.titles == ["Left: Grocery store — Buy milk"])
    }

    @Test func completingDisarmsAndARecurringReminderReArmsForItsNextInstance() async throws {
        let h = try SchedulerHarness()
        let reminder = try h.addReminder("Water plants", due: at(2026, 11, 20, 18), alarms: [.location(Self.grocery, .enter)],
                                         rule: "FREQ=DAILY;COUNT=3")
        try h.start()
        let m = try monitor(h)
        try feed(800, m, h)
        try feed(10, m, h)
        #expect(h.sink.titles == ["Arrived: Grocery store — Water plants"])
        let firstKey = try #require(h.sink.delivered.first?.keys.first)

        // "Complete" clicked: the series advances to tomorrow's instance, a new fence with its own key.
        let sequence = try h.store.currentChangeSequence()
        try h.scheduler.respond(NotificationResponse(keys: [firstKey], kind: .complete))
        let followUps = try m.apply(try await h.pendingChanges(after: sequence), now: h.clock.now())
        #expect(followUps.isEmpty)   // settled on the recent fix (inside) without firing
        let keys = m.engine.fences.map(\.key)
        #expect(keys.count == 1)
        #expect(keys.first != firstKey)
        #expect(keys.first?.occurrence == utc(2026, 11, 21, 18))
        #expect(m.engine.status(of: keys[0])?.state == .inside)

        // Leave and come back: the next instance fires.
        try feed(900, m, h)
        try feed(10, m, h)
        #expect(h.sink.titles == ["Arrived: Grocery store — Water plants", "Arrived: Grocery store — Water plants"])
        #expect(h.sink.delivered.last?.keys == [keys[0]])

        // Completing a one-off reminder disarms its fence entirely, and locating stops.
        #expect(m.trackingUpdate()??.accuracy == .exact)
        var current = try #require(try h.store.reminder(withIdentifier: reminder.identifier))
        let before = try h.store.currentChangeSequence()
        current.recurrenceRules = []
        current.isCompleted = true
        try h.store.save(current)
        _ = try m.apply(try await h.pendingChanges(after: before), now: h.clock.now())
        #expect(m.engine.count == 0)
        #expect(m.trackingUpdate() == .some(nil))   // nothing armed: stop locating
    }

    @Test func eventFencesArmOnTheDayAndTheWindowIsADeadline() throws {
        let h = try SchedulerHarness(now: utc(2026, 11, 23, 20))
        try h.addEvent("Team lunch", start: at(2026, 11, 24, 12), alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        #expect(m.engine.count == 0)
        #expect(m.nextArmingChange == utc(2026, 11, 24))
        h.clock.advance(to: utc(2026, 11, 24, 0, 0))
        #expect(try m.armingChanged(now: h.clock.now()).isEmpty)
        #expect(m.engine.count == 1)
        #expect(m.nextArmingChange == utc(2026, 11, 25))
        try feed(700, m, h)
        try feed(50, m, h)
        #expect(h.sink.titles == ["Arrived: Grocery store — Team lunch"])
        #expect(h.sink.delivered.first?.body.hasPrefix("Tue 2026-11-24 12:00–13:00") == true)
    }

    @Test func trackingFollowsTheDistanceToTheNearestFence() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        #expect(m.trackingUpdate()??.accuracy == .exact)     // no position yet: the best
        try feed(50_000, m, h)
        #expect(m.trackingUpdate()??.accuracy == .city)
        #expect(m.trackingUpdate() == nil)                   // unchanged: nothing to send
        try feed(5_000, m, h)
        let street = try #require(m.trackingUpdate() ?? nil)
        #expect(street.accuracy == .street)
        #expect(street.reason == "nearest fence boundary 4.9 km away")
        try feed(600, m, h)
        #expect(m.trackingUpdate()??.accuracy == .exact)
    }

    @Test func aSnoozedLocationAlarmComesBackWithItsPlace() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        try feed(800, m, h)
        try feed(10, m, h)
        let key = try #require(h.sink.delivered.first?.keys.first)
        try h.scheduler.respond(NotificationResponse(keys: [key], kind: .snooze))
        try h.start()   // restart while snoozed: the notification is rebuilt from the store
        try h.advance(by: 601)
        #expect(h.sink.titles == ["Arrived: Grocery store — Buy milk", "Arrived: Grocery store — Buy milk"])
    }
}
