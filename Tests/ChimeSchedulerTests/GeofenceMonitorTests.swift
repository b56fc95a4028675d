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
        try feed(800, m, h)  // settles outside: nothing
        #expect(h.sink.delivered.isEmpty)
        try feed(40, m, h)
        #expect(h.sink.titles == ["Arrived: Grocery store — Buy milk"])
        let note = try #require(h.sink.delivered.first)
        #expect(note.actions == [.default, .complete, .snooze(.minutes(10)), .snooze(.minutes(60))])
        #expect(note.category == "x-chime.reminder")
        #expect(note.keys.first?.item == milk.identifier)
        #expect(try h.store.ledger.entries(for: note.keys)[note.keys[0]]?.state == .delivered)

        // Leaving and coming back: the same key, already delivered — the ledger keeps it at once.
        try feed(800, m, h)
        try feed(20, m, h)
        #expect(h.sink.delivered.count == 1)
        #expect(try h.store.geofences.lastFix()?.provider == "test")
    }

    /// A restart while inside must not fire "arrive" again: with the `fire` policy an unknown
    /// fence would fire on the first fix inside, a fence restored as inside does not.
    @Test func aRestartWhileInsideDoesNotFireAgain() throws {
        let h = try SchedulerHarness()
        var settings = GeofenceSettings()
        settings.initialState = .fire
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.addReminder("Call mum", due: nil, alarms: [.location(Self.grocery, .leave)])
        try h.start()
        var m = try monitor(h, settings: settings)
        try feed(800, m, h)  // outside: the leave fence fires at once (fire policy), the arrive fence settles
        #expect(h.sink.titles == ["Left: Grocery store — Call mum"])
        try feed(30, m, h)  // arrive
        #expect(h.sink.titles.last == "Arrived: Grocery store — Buy milk")
        let saved = try h.store.geofences.statuses()
        #expect(Set(saved.values.map(\.state)) == [.inside])

        // The daemon restarts while the user is still inside; the ledger is cleared to prove that
        // the saved state, not the ledger, keeps "arrive" from firing again.
        try h.store.ledger.prune(before: h.clock.now().adding(86_400 * 365))
        try h.start()
        m = try monitor(h, settings: settings)
        #expect(m.engine.fences.allSatisfy { m.engine.status(of: $0.key)?.state == .inside })
        try feed(20, m, h)
        #expect(h.sink.delivered.count == 2)

        // Without saved states (a fresh store's view) the same fix would fire under this policy.
        try h.store.geofences.prune(keeping: [])
        try h.start()
        m = try monitor(h, settings: settings)
        try feed(20, m, h)
        #expect(h.sink.titles.last == "Arrived: Grocery store — Buy milk")
        #expect(h.sink.delivered.count == 3)
    }

    /// A position stands until a new one comes: a fence armed later settles with it (here it fires,
    /// with the `fire` policy), and a dwell time ends at its deadline without a new fix.
    @Test func theLastFixSettlesLaterFencesAndEndsDwellTimes() async throws {
        let h = try SchedulerHarness()
        var settings = GeofenceSettings()
        settings.initialState = .fire
        settings.dwellSeconds = 120
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .leave)])
        try h.start()
        let m = try monitor(h, settings: settings)
        try feed(10, m, h)  // inside; the leave fence settles (fire policy: not its side)
        h.clock.advance(to: h.clock.now().adding(3600))  // an hour without a fix (a desk that never moves)
        let sequence = try h.store.currentChangeSequence()
        try h.addReminder("Pay for parking", due: nil, alarms: [.location(Self.grocery, .enter)])
        let settled = try m.apply(try await h.pendingChanges(after: sequence), now: h.clock.now())
        #expect(settled.map(\.item.title) == ["Pay for parking"])

        // Leaving with a dwell time: one fix outside, then nothing; the deadline confirms it.
        try feed(900, m, h)
        #expect(m.nextDeadline == h.clock.now().adding(110))
        h.clock.advance(to: h.clock.now().adding(110))
        let confirmed = try m.wake(now: h.clock.now())
        #expect(confirmed.map(\.item.title) == ["Buy milk"])
    }

    @Test func aWallClockSetBackAcceptsFixesAgain() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        try feed(800, m, h)
        h.clock.set(to: h.clock.now().adding(-7200))  // NTP steps the clock back two hours
        // Before the clock change is handled, a fix stamped before the last one is refused …
        #expect(try m.process(fix(10, h), now: h.clock.now()).isEmpty)
        #expect(m.engine.status(of: m.engine.fences[0].key)?.state == .outside)
        // … after it, fixes count again.
        _ = try m.clockChanged(zone: h.zone, now: h.clock.now())
        let fired = try m.process(fix(10, h), now: h.clock.now())
        #expect(fired.map(\.item.title) == ["Buy milk"])
    }

    @Test func completingDisarmsAndARecurringReminderReArmsForItsNextInstance() async throws {
        let h = try SchedulerHarness()
        let reminder = try h.addReminder(
            "Water plants", due: at(2026, 11, 20, 18), alarms: [.location(Self.grocery, .enter)],
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
        #expect(followUps.isEmpty)  // settled on the recent fix (inside) without firing
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
        #expect(m.trackingUpdate() == .some(nil))  // nothing armed: stop locating
    }

    @Test func eventFencesArmOnTheDayAndTheWindowIsADeadline() throws {
        let h = try SchedulerHarness(now: utc(2026, 11, 23, 20))
        try h.addEvent("Team lunch", start: at(2026, 11, 24, 12), alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        #expect(m.engine.count == 0)
        #expect(m.nextArmingChange == utc(2026, 11, 24))
        h.clock.advance(to: utc(2026, 11, 24, 0, 0))
        #expect(try m.wake(now: h.clock.now()).isEmpty)
        #expect(m.engine.count == 1)
        #expect(m.nextArmingChange == utc(2026, 11, 25))
        try feed(700, m, h)
        try feed(50, m, h)
        #expect(h.sink.titles == ["Arrived: Grocery store — Team lunch"])
        #expect(h.sink.delivered.first?.body.hasPrefix("Tue 2026-11-24 12:00–13:00") == true)
    }

    @Test func coarseFixesStillMoveTheTrackingAndAFailedCoarseLevelMeansExact() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        _ = m.trackingUpdate()
        _ = try m.process(
            LocationFix(
                coordinate: Self.near(60_000), horizontalAccuracy: 3_000,
                timestampMilliseconds: h.clock.nowMilliseconds()), now: h.clock.now())
        #expect(m.trackingUpdate()??.accuracy == .city)
        // A GeoIP-grade fix (too coarse to change a fence) 2 km away still brings the finer level.
        h.clock.advance(to: h.clock.now().adding(600))
        _ = try m.process(
            LocationFix(
                coordinate: Self.near(2_000), horizontalAccuracy: 1_000,
                timestampMilliseconds: h.clock.nowMilliseconds()), now: h.clock.now())
        #expect(m.trackingUpdate()??.accuracy == .exact)  // 2 km − 1 km of inaccuracy: within 1 km
        _ = try m.process(
            LocationFix(
                coordinate: Self.near(50_000), horizontalAccuracy: 3_000,
                timestampMilliseconds: h.clock.nowMilliseconds() + 1000), now: h.clock.now())
        #expect(m.trackingUpdate()??.accuracy == .city)
        // GeoClue finds nothing at city level (GPS only): exact from then on.
        m.providerUnavailable()
        let exact = try #require(m.trackingUpdate() ?? nil)
        #expect(exact.accuracy == .exact)
        #expect(exact.reason == "no position at coarser levels")
    }

    @Test func trackingFollowsTheDistanceToTheNearestFence() throws {
        let h = try SchedulerHarness()
        try h.addReminder("Buy milk", due: nil, alarms: [.location(Self.grocery, .enter)])
        try h.start()
        let m = try monitor(h)
        #expect(m.trackingUpdate()??.accuracy == .exact)  // no position yet: the best
        try feed(50_000, m, h)
        #expect(m.trackingUpdate()??.accuracy == .city)
        #expect(m.trackingUpdate() == nil)  // unchanged: nothing to send
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
        try h.start()  // restart while snoozed: the notification is rebuilt from the store
        try h.advance(by: 601)
        #expect(h.sink.titles == ["Arrived: Grocery store — Buy milk", "Arrived: Grocery store — Buy milk"])
    }
}
