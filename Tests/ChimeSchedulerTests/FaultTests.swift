import ChimeCore
import ChimeScheduler
@testable import ChimeStore
import Foundation
import GRDB
import Synchronization
import Testing

/// A sink that refuses the first `failures` notifications, as a notification server does whose
/// connection was closed, then takes them.
final class RefusingSink: NotificationSink {
    let name = "refusing"
    let responses: AsyncStream<NotificationResponse>
    private let state: Mutex<(failuresLeft: Int, accepted: [AlarmNotification], refused: Int)>

    init(failures: Int) {
        responses = AsyncStream { $0.finish() }
        state = Mutex((failures, [], 0))
    }

    func deliver(_ n: AlarmNotification, deliveredAtMilliseconds ms: Int64) throws(DeliveryError) {
        let refused = state.withLock { s -> Bool in
            if s.failuresLeft > 0 { s.failuresLeft -= 1; s.refused += 1; return true }
            s.accepted.append(n)
            return false
        }
        if refused { throw DeliveryError("The connection is closed") }
    }

    func withdraw(_ keys: Set<FiringKey>) {}
    func ask(_ question: UserQuestion, answered: @escaping @Sendable (String?) -> Void) throws(DeliveryError) -> Int {
        throw DeliveryError("refused")
    }
    func withdrawQuestion(_ id: Int) {}

    func shutdown() {}
    func refuse(_ count: Int) { state.withLock { $0.failuresLeft = count } }
    var titles: [String] { state.withLock { $0.accepted.map(\.summary) } }
    var refusals: Int { state.withLock { $0.refused } }
}

/// Another process holding the store's write lock (a long import, a backup tool, a stuck writer).
final class WriteLockHolder {
    private let queue: DatabaseQueue
    init(path: String) throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true  // the point: a transaction left open
        queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
    }
    func release() throws { try queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") } }
}

/// Faults at the moment an alarm is due: nothing is lost, nothing is shown twice.
@Suite struct FaultTests {
    // MARK: Store errors at due time

    /// Alarms "Held" at 12:10 and "Later" at 12:20; another connection holds the write lock at
    /// 12:10, so recording "Held" fails.
    static func lockedWhenTheFirstAlarmIsDue() throws -> (SchedulerHarness, WriteLockHolder) {
        let h = try SchedulerHarness(busyTimeout: 0.2)
        try h.addEvent("Held", start: at(2026, 11, 20, 12, 10), alarms: [.relative(0)])
        try h.addEvent("Later", start: at(2026, 11, 20, 12, 20), alarms: [.relative(0)])
        try h.start()
        let holder = try WriteLockHolder(path: h.path)
        #expect(throws: StoreError.self) { try h.advance(to: utc(2026, 11, 20, 12, 10)) }
        return (h, holder)
    }

    @Test func aWriteLockHeldAtDueTimeDelaysTheAlarmButDoesNotLoseIt() throws {
        let (h, holder) = try Self.lockedWhenTheFirstAlarmIsDue()
        #expect(h.sink.titles.isEmpty)
        // The retry is a deadline of its own, a second later, not the next alarm's.
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 12, 10, 1))
        #expect(throws: StoreError.self) { try h.advance(to: utc(2026, 11, 20, 12, 10, 1)) }
        #expect(h.scheduler.nextDeadline() == utc(2026, 11, 20, 12, 10, 3))  // backoff doubles
        try holder.release()
        try h.advance(to: utc(2026, 11, 20, 12, 10, 3))
        #expect(h.sink.titles == ["Held"])
        try h.advance(to: utc(2026, 11, 20, 12, 20))
        #expect(h.sink.titles == ["Held", "Later"])
    }

    @Test func aFiringThatFailedToRecordComesBackAfterALaterAlarmAndARestart() throws {
        let (h, holder) = try Self.lockedWhenTheFirstAlarmIsDue()
        try holder.release()
        // The daemon is killed before its retry; the checkpoint must not have passed 12:10 …
        #expect(try h.store.ledger.checkpoint()! <= utc(2026, 11, 20, 12, 10))
        h.clock.set(to: utc(2026, 11, 20, 12, 20))
        try h.start()
        // … so the restart delivers both, once each.
        #expect(h.sink.titles == ["Held", "Later"])
        try h.start()
        #expect(h.sink.titles == ["Held", "Later"])
    }

    @Test func aChangeAppliedWhileTheStoreIsLockedStillFires() async throws {
        let h = try SchedulerHarness(busyTimeout: 0.2)
        try h.addEvent("Due now", start: at(2026, 11, 20, 12, 5), alarms: [.relative(0)])
        try h.start()
        let sequence = try h.store.currentChangeSequence()
        try h.addEvent("Added", start: at(2026, 11, 20, 12, 30), alarms: [.relative(0)])
        let changes = try await h.pendingChanges(after: sequence)
        h.clock.set(to: utc(2026, 11, 20, 12, 5))
        let holder = try WriteLockHolder(path: h.path)
        // Applying reads (not blocked by a writer in WAL mode), then records what is due: that fails.
        #expect(throws: StoreError.self) { try h.scheduler.apply(changes) }
        try holder.release()
        try h.advance(to: utc(2026, 11, 20, 12, 30))
        #expect(h.sink.titles == ["Due now", "Added"])
    }

    // MARK: A notification server that refuses

    @Test func aRefusedNotificationIsRetriedAndTheLedgerSaysDeliveredOnlyOnceAccepted() throws {
        let h = try SchedulerHarness()
        let sink = RefusingSink(failures: 2)
        try h.addEvent("Dentist", start: at(2026, 11, 20, 12, 10), alarms: [.relative(0)])
        let scheduler = AlarmScheduler(store: h.store, sink: sink, clock: h.clock, zone: .utc)
        try scheduler.start()
        h.clock.set(to: utc(2026, 11, 20, 12, 10))
        try scheduler.processDue()
        #expect(sink.titles.isEmpty)
        let claimed = try h.store.ledger.entries(state: .delivered)
        #expect(claimed.count == 1)
        #expect(claimed.first?.deliveredAtMilliseconds == nil)  // claimed, not confirmed
        #expect(scheduler.nextDeadline() == utc(2026, 11, 20, 12, 10, 1))
        h.clock.set(to: utc(2026, 11, 20, 12, 10, 1))
        try scheduler.processDue()
        #expect(sink.titles.isEmpty)
        #expect(scheduler.nextDeadline() == utc(2026, 11, 20, 12, 10, 3))
        h.clock.set(to: utc(2026, 11, 20, 12, 10, 3))
        try scheduler.processDue()
        #expect(sink.titles == ["Dentist"])
        #expect(sink.refusals == 2)
        #expect(try h.store.ledger.entries(state: .delivered).first?.deliveredAtMilliseconds == utc(2026, 11, 20, 12, 10, 3).milliseconds)
        #expect(scheduler.nextDeadline() == nil)
    }

    @Test func oneRefusedNotificationDoesNotStopTheNextOnes() throws {
        let h = try SchedulerHarness()
        let sink = RefusingSink(failures: 1)
        try h.addEvent("First", start: at(2026, 11, 20, 12, 10), alarms: [.relative(0)])
        try h.addEvent("Second", start: at(2026, 11, 20, 12, 11), alarms: [.relative(0)])
        let scheduler = AlarmScheduler(store: h.store, sink: sink, clock: h.clock, zone: .utc)
        try scheduler.start()
        h.clock.set(to: utc(2026, 11, 20, 12, 10))
        try scheduler.processDue()
        h.clock.set(to: utc(2026, 11, 20, 12, 11))
        try scheduler.processDue()
        #expect(sink.titles == ["First", "Second"])
    }

    @Test func aClaimLeftUnconfirmedByACrashIsShownOnStart() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Crash", start: at(2026, 11, 20, 12, 10), alarms: [.relative(0)])
        try h.start()
        // What a daemon killed between the claim and the server's answer leaves behind.
        let firing = try #require(
            AlarmAgenda.firings(
                of: h.store.alarmSources(from: utc(2026, 11, 20, 12)).map { ($0.item, $0.replaced) },
                zone: .utc, from: utc(2026, 11, 20, 12), to: utc(2026, 11, 20, 13)
            ).first)
        h.clock.set(to: utc(2026, 11, 20, 12, 10))
        _ = try h.store.ledger.claimDeliveries([firing], checkedUntil: utc(2026, 11, 20, 12, 10), deliveredAtMilliseconds: 0)
        try h.start()
        #expect(h.sink.titles == ["Crash"])
        #expect(try h.store.ledger.unconfirmedDeliveries().isEmpty)
        try h.start()
        #expect(h.sink.titles == ["Crash"])
    }

    @Test func aNotificationRefusedForLongerThanTheGraceWindowIsRecordedAsMissed() throws {
        let h = try SchedulerHarness()
        h.settings.graceSeconds = 600
        let sink = RefusingSink(failures: 1_000)
        try h.addEvent("Never shown", start: at(2026, 11, 20, 12, 10), alarms: [.relative(0)])
        let scheduler = AlarmScheduler(store: h.store, sink: sink, clock: h.clock, zone: .utc, settings: h.settings)
        try scheduler.start()
        var now = utc(2026, 11, 20, 12, 10)
        while now < utc(2026, 11, 20, 12, 30), let next = scheduler.nextDeadline() {
            now = max(next, now)
            h.clock.set(to: now)
            try scheduler.processDue()
        }
        #expect(try h.store.ledger.entries(state: .missed).map(\.title) == ["Never shown"])
        #expect(scheduler.nextDeadline() == nil)
        // Backoff: 1, 2, 4 … 60 s, so about 15 attempts in the 10 minutes, not 600.
        #expect(sink.refusals < 20)
    }

    // MARK: Clock and zone

    @Test func aClockSetBackRewindsTheCheckpointSoNewAlarmsInTheRepeatedHourFire() async throws {
        let h = try SchedulerHarness()
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))  // ran an hour ahead: checkpoint 13:00
        h.clock.set(to: utc(2026, 11, 20, 12))  // corrected
        try h.scheduler.clockChanged(zone: .utc)
        #expect(try h.store.ledger.checkpoint() == utc(2026, 11, 20, 12))
        let sequence = try h.store.currentChangeSequence()
        try h.addEvent("In the repeated hour", start: at(2026, 11, 20, 12, 30), alarms: [.relative(0)])
        try h.scheduler.apply(try await h.pendingChanges(after: sequence))
        try h.advance(to: utc(2026, 11, 20, 12, 30))
        #expect(h.sink.titles == ["In the repeated hour"])
    }

    @Test func aClockSetBackWhileTheDaemonWasOffIsRewoundOnStart() throws {
        let h = try SchedulerHarness()
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 13))
        try h.addEvent("Shown at 12:45 while ahead", start: at(2026, 11, 20, 12, 45), alarms: [.relative(0)])
        h.clock.set(to: utc(2026, 11, 20, 12))
        try h.addEvent("Added for 12:30", start: at(2026, 11, 20, 12, 30), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 12, 50))
        #expect(h.sink.titles == ["Added for 12:30", "Shown at 12:45 while ahead"])
        h.clock.set(to: utc(2026, 11, 20, 12))  // and back once more: the ledger stops repeats
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 12, 50))
        #expect(h.sink.titles == ["Added for 12:30", "Shown at 12:45 while ahead"])
    }

    @Test func theSystemZoneIsReadFromLocaltimeEachTimeNotCached() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-zone-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let localtime = folder + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: localtime, withDestinationPath: ZoneRules.zoneInfoDirectory + "/Europe/Berlin")
        #expect(SystemZone.current(environment: [:], localtime: localtime).identifier == "Europe/Berlin")
        // Replaced the way timedatectl does: a new link renamed over the old one.
        try FileManager.default.createSymbolicLink(atPath: localtime + ".new", withDestinationPath: ZoneRules.zoneInfoDirectory + "/America/New_York")
        #expect(rename(localtime + ".new", localtime) == 0)
        #expect(SystemZone.current(environment: [:], localtime: localtime).identifier == "America/New_York")
        // A copied file (no link) is read by its bytes, named by /etc/timezone when they agree.
        try FileManager.default.removeItem(atPath: localtime)
        try FileManager.default.copyItem(atPath: ZoneRules.zoneInfoDirectory + "/Asia/Tokyo", toPath: localtime)
        try "Asia/Tokyo\n".write(toFile: folder + "/timezone", atomically: true, encoding: .utf8)
        #expect(SystemZone.current(environment: [:], localtime: localtime).identifier == "Asia/Tokyo")
        try "Europe/Paris\n".write(toFile: folder + "/timezone", atomically: true, encoding: .utf8)
        let copied = SystemZone.current(environment: [:], localtime: localtime)
        #expect(copied.identifier == "localtime")
        #expect(copied.offset(at: utc(2026, 7, 1)) == Int32(9 * 3600))
        #expect(SystemZone.current(environment: ["TZ": ":Europe/Lisbon"], localtime: localtime).identifier == "Europe/Lisbon")
    }

    @Test func aZoneChangeMovesFloatingAndAllDayAlarmsToTheNewWallClock() throws {
        let h = try SchedulerHarness()
        let floating = CalendarDate.floating(LocalDateTime(year: 2026, month: 11, day: 20, hour: 18))
        try h.addEvent("Floating 18:00", start: floating, alarms: [.relative(0)])
        try h.addReminder("All-day, 1 h before", due: .allDay(CivilDate(year: 2026, month: 11, day: 21)), alarms: [.relative(-3600)])
        try h.start(zone: .utc)
        h.clock.set(to: utc(2026, 11, 20, 14))
        try h.scheduler.clockChanged(zone: try ZoneRules.named("America/New_York"))  // UTC−5 in November
        try h.advance(to: utc(2026, 11, 20, 22, 59))  // the old zone's 18:00 brings nothing
        #expect(h.sink.titles.isEmpty)
        try h.advance(to: utc(2026, 11, 20, 23))  // 18:00 in New York
        #expect(h.sink.titles == ["Floating 18:00"])
        try h.advance(to: utc(2026, 11, 21, 12, 59))  // the old zone's 08:00 on the 21st brings nothing
        #expect(h.sink.titles == ["Floating 18:00"])
        // All-day alarms count from 09:00: 1 h before is 08:00 on the 21st in New York.
        try h.advance(to: utc(2026, 11, 21, 13))
        #expect(h.sink.titles == ["Floating 18:00", "All-day, 1 h before"])
        try h.advance(to: utc(2026, 11, 22))
        #expect(h.sink.titles.count == 2)
    }

    // MARK: Hostile content

    @Test func aSecondlySeriesNotifiesAtMostOnceAMinuteAndCountsTheRest() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Every second", start: at(2026, 11, 20, 12, 1), duration: 1, alarms: [.relative(0)], rule: "FREQ=SECONDLY")
        try h.start()
        for second in stride(from: Int64(1), through: 180, by: 1) { try h.advance(to: utc(2026, 11, 20, 12, 1).adding(second - 1)) }
        #expect(h.sink.titles.count == 3)  // 12:01:00, 12:02:00, 12:03:00
        #expect(h.sink.delivered.dropFirst().allSatisfy { $0.body.contains("59 more since the last alert") })
        #expect(try h.store.ledger.entries().count == 3)  // no ledger row per second
    }

    @Test func notificationTextIsCutToWhatServersShowAndLosesControlCharacters() {
        let huge = String(repeating: "B", count: 5_000_000)
        let summary = NotificationText.fitted("Evil\u{1B}[31m\u{202E}title\n" + huge, characters: 120, lines: 1)
        #expect(summary.unicodeScalars.count == 121)
        #expect(summary.hasPrefix("Evil[31mtitle B"))
        #expect(summary.hasSuffix("…"))
        #expect(!summary.unicodeScalars.contains { $0.value < 0x20 })
        let body = NotificationText.fitted((1...30).map { "line \($0)" }.joined(separator: "\r\n"), characters: 1_000, lines: 12)
        #expect(body.split(separator: "\n").count == 12)
        #expect(body.hasSuffix("line 12…"))
    }

    // MARK: Unreadable items

    @Test func anUnreadableStoredItemIsSkippedAndTheOthersStillFire() throws {
        let h = try SchedulerHarness()
        try h.addEvent("Good", start: at(2026, 11, 20, 12, 10), alarms: [.relative(0)])
        let poison = try h.addEvent("Poison", start: at(2026, 11, 20, 12, 5), alarms: [.relative(0)])
        // What an older Chime let through: an end in the year 10000 that reads back as nothing.
        try h.store.pool.write { db in
            try db.execute(sql: "UPDATE item SET \"end\" = '100000101T010000Z' WHERE id = ?", arguments: [poison.identifier])
        }
        try h.start()
        #expect(try h.store.takeUnreadableItems().isEmpty)  // the scheduler took and logged it
        try h.advance(to: utc(2026, 11, 20, 12, 10))
        #expect(h.sink.titles == ["Good"])
        #expect(try h.store.removeUnreadableItem(identifier: poison.identifier))
        #expect(try h.store.calendarItem(withIdentifier: poison.identifier) == nil)
    }

    @Test func valuesTheStoreCannotWriteBackAreRefusedBeforeTheyAreStored() throws {
        let h = try SchedulerHarness()
        let calendar = try h.store.defaultCalendarForNewEvents().identifier
        let poison = Event(
            title: "poison", calendar: calendar,
            start: .utc(LocalDateTime(year: 9999, month: 12, day: 31, hour: 23)), duration: 7200)
        #expect(throws: StoreError.invalid(.outsideWritableYears(field: "end", value: "10000-01-01T01:00"))) {
            try h.store.save(poison)
        }
        var farAlarm = Event(title: "alarm", calendar: calendar, start: at(2026, 11, 20, 12), duration: 60)
        farAlarm.alarms = [.relative(Int64.min)]
        #expect(throws: StoreError.invalid(.alarmOffsetTooLarge(Int64.min))) { try h.store.save(farAlarm) }
        #expect(try h.store.allItems(in: nil).isEmpty)
    }
}
