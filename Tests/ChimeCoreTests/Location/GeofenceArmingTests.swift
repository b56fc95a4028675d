import ChimeCore
import Testing

@Suite("Geofence arming: which location alarms are armed when")
struct GeofenceArmingTests {
    let berlin = try! ZoneRules.named("Europe/Berlin")
    let settings = GeofenceSettings()
    let office = StructuredLocation(title: "Office", latitude: 52.52, longitude: 13.405, radius: 0)

    func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) -> Instant {
        berlin.instant(for: LocalDateTime(year: y, month: m, day: d, hour: h, minute: min))
    }

    @Test func incompleteRemindersAreArmedUntilCompleted() {
        var r = Reminder(title: "Buy milk")
        r.alarms = [.location(office, .leave), .relative(-600)]
        var armed = GeofenceArming.fences(for: .reminder(r), at: at(2026, 11, 23, 8), zone: berlin, settings: settings)
        #expect(armed.fences.count == 1)
        #expect(armed.nextChange == nil)
        let fence = armed.fences[0]
        #expect(fence.radius == 150)  // radius 0 → the default
        #expect(fence.proximity == .leave)
        #expect(fence.key.alarm == "leave@52.52000,13.40500/0")
        #expect(fence.key.occurrence == Instant(secondsSince1970: 0))  // no due date

        // A recurring reminder's current instance is keyed by its due date: the next instance is a new fence.
        r.dueDate = .zoned(LocalDateTime(year: 2026, month: 11, day: 23, hour: 18), berlin)
        armed = GeofenceArming.fences(for: .reminder(r), at: at(2026, 11, 23, 8), zone: berlin, settings: settings)
        #expect(armed.fences[0].key.occurrence == at(2026, 11, 23, 18))

        r.isCompleted = true
        #expect(GeofenceArming.fences(for: .reminder(r), at: at(2026, 11, 23, 8), zone: berlin, settings: settings).fences.isEmpty)
    }

    @Test func eventsAreArmedOnTheLocalDayOfTheOccurrence() {
        var e = Event(title: "Team lunch", start: .zoned(LocalDateTime(year: 2026, month: 11, day: 24, hour: 12), berlin), duration: 3600)
        e.alarms = [.location(office, .enter)]
        // The day before: not armed; the window opens at local midnight.
        let before = GeofenceArming.fences(for: .event(e), at: at(2026, 11, 23, 20), zone: berlin, settings: settings)
        #expect(before.fences.isEmpty)
        #expect(before.nextChange == at(2026, 11, 24, 0))
        // That day: armed until the next midnight, also after the event.
        for hour in [0, 9, 13, 23] {
            let during = GeofenceArming.fences(for: .event(e), at: at(2026, 11, 24, hour), zone: berlin, settings: settings)
            #expect(during.fences.map(\.key.occurrence) == [at(2026, 11, 24, 12)], "at \(hour):00")
            #expect(during.nextChange == at(2026, 11, 25, 0))
        }
        let after = GeofenceArming.fences(for: .event(e), at: at(2026, 11, 25, 0), zone: berlin, settings: settings)
        #expect(after.fences.isEmpty && after.nextChange == nil)
    }

    @Test func recurringEventsArmTodaysOccurrenceOnly() throws {
        var e = Event(title: "Gym", start: .zoned(LocalDateTime(year: 2026, month: 11, day: 2, hour: 18), berlin), duration: 5400)
        e.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")]
        e.alarms = [.location(office, .leave)]
        // Monday 23 Nov: armed for that occurrence; next change at Tuesday midnight.
        let monday = GeofenceArming.fences(for: .event(e), at: at(2026, 11, 23, 7), zone: berlin, settings: settings)
        #expect(monday.fences.map(\.key.occurrence) == [at(2026, 11, 23, 18)])
        #expect(monday.nextChange == at(2026, 11, 24, 0))
        // Tuesday: nothing; the window of Wednesday's occurrence opens at Wednesday midnight.
        let tuesday = GeofenceArming.fences(for: .event(e), at: at(2026, 11, 24, 7), zone: berlin, settings: settings)
        #expect(tuesday.fences.isEmpty)
        #expect(tuesday.nextChange == at(2026, 11, 25, 0))
        // A detached copy replaces Wednesday's occurrence: the series skips it.
        let replaced: Set<Int64> = [at(2026, 11, 25, 18).secondsSince1970]
        let wednesday = GeofenceArming.fences(for: .event(e), replaced: replaced, at: at(2026, 11, 25, 7), zone: berlin, settings: settings)
        #expect(wednesday.fences.isEmpty)
    }

    @Test func armingHoursBeforeTheStartReplaceTheDay() {
        var custom = GeofenceSettings()
        custom.eventArmingHours = 2
        var e = Event(title: "Dentist", start: .zoned(LocalDateTime(year: 2026, month: 11, day: 24, hour: 15), berlin), duration: 1800)
        e.alarms = [.location(office, .enter)]
        #expect(GeofenceArming.fences(for: .event(e), at: at(2026, 11, 24, 12, 59), zone: berlin, settings: custom).fences.isEmpty)
        let armed = GeofenceArming.fences(for: .event(e), at: at(2026, 11, 24, 13), zone: berlin, settings: custom)
        #expect(armed.fences.count == 1)
        #expect(armed.nextChange == at(2026, 11, 24, 15, 30))
        #expect(GeofenceArming.fences(for: .event(e), at: at(2026, 11, 24, 15, 30), zone: berlin, settings: custom).fences.isEmpty)
    }

    @Test func trackingGetsCoarserFarFromEveryFence() {
        #expect(TrackingPolicy.request(nearestBoundary: 10, fenceCount: 0, adaptive: true) == nil)
        #expect(TrackingPolicy.request(nearestBoundary: 300, fenceCount: 2, adaptive: true)?.accuracy == .exact)
        let mid = TrackingPolicy.request(nearestBoundary: 4_200, fenceCount: 2, adaptive: true)
        #expect(mid?.accuracy == .street)
        #expect(mid?.reason == "nearest fence boundary 4.2 km away")
        #expect(TrackingPolicy.request(nearestBoundary: nil, fenceCount: 2, adaptive: true)?.accuracy == .city)
        #expect(TrackingPolicy.request(nearestBoundary: nil, fenceCount: 2, adaptive: false)?.accuracy == .exact)
    }
}
