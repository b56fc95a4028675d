import ChimeCore
import ChimeScheduler
@testable import ChimeStore
import Foundation
import Synchronization

/// A notification sink that records what it was given and lets a test answer as the user would.
final class RecordingSink: NotificationSink {
    let name = "recording"
    let responses: AsyncStream<NotificationResponse>
    private let continuation: AsyncStream<NotificationResponse>.Continuation
    private let log = Mutex<[(note: AlarmNotification, at: Int64)]>([])

    init() { (responses, continuation) = AsyncStream.makeStream() }

    func deliver(_ n: AlarmNotification, deliveredAtMilliseconds ms: Int64) throws(DeliveryError) {
        log.withLock { $0.append((n, ms)) }
    }

    func shutdown() { continuation.finish() }

    private let withdrawals = Mutex<[Set<FiringKey>]>([])
    func withdraw(_ keys: Set<FiringKey>) { withdrawals.withLock { $0.append(keys) } }
    /// Questions asked, with who hears each answer.
    let questions = Mutex<[(question: UserQuestion, answered: @Sendable (String?) -> Void)]>([])
    func ask(_ question: UserQuestion, answered: @escaping @Sendable (String?) -> Void) throws(DeliveryError) -> Int {
        questions.withLock {
            $0.append((question, answered)); return $0.count
        }
    }
    func withdrawQuestion(_ id: Int) {}
    /// Every key the scheduler took off the screen, in order.
    var withdrawn: [FiringKey] { withdrawals.withLock { $0.flatMap { $0.sorted { "\($0)" < "\($1)" } } } }

    /// The user clicks or closes a notification.
    func answer(_ response: NotificationResponse) { continuation.yield(response) }

    var delivered: [AlarmNotification] { log.withLock { $0.map(\.note) } }
    var titles: [String] { delivered.map(\.summary) }
    var deliveryTimes: [Int64] { log.withLock { $0.map(\.at) } }
}

/// A URL opener that records what it was asked to open instead of starting a browser.
final class RecordingOpener: URLOpener {
    private let log = Mutex<[String]>([])
    func open(_ url: String) throws(OpenError) { log.withLock { $0.append(url) } }
    var opened: [String] { log.withLock { $0 } }
}

/// A store in a temporary folder, a manual clock, a recording sink and a scheduler over them.
final class SchedulerHarness {
    let folder: String
    let path: String
    let clock: ManualWallClock
    let store: EventStore
    let sink = RecordingSink()
    let zone: ZoneRules
    var settings = SchedulerSettings()
    let opener = RecordingOpener()
    /// Starts the items' allowed commands; nil: the scheduler runs none.
    var commandRunner: (any CommandRunner)?
    private(set) var scheduler: AlarmScheduler!

    /// `busyTimeout`: how long the store waits for another connection's write lock.
    init(zone: ZoneRules = .utc, now: Instant = utc(2026, 11, 20, 12), busyTimeout: Double = 10) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sched-\(UUID().uuidString)").path
        path = folder + "/chime.sqlite"
        clock = ManualWallClock(now: now)
        self.zone = zone
        let clock = self.clock
        store = try EventStore(path: path, floatingZone: zone, clock: { clock.now() }, busyTimeout: busyTimeout)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// A scheduler (a fresh one each call: as after a daemon restart) started at the clock's now.
    @discardableResult
    func start(zone: ZoneRules? = nil) throws -> AlarmScheduler {
        scheduler = AlarmScheduler(
            store: store, sink: sink, clock: clock, zone: zone ?? self.zone, settings: settings,
            opener: opener, commandRunner: commandRunner)
        try scheduler.start()
        return scheduler
    }

    /// Moves virtual time and lets the scheduler handle what came due.
    func advance(to instant: Instant) throws {
        clock.advance(to: instant)
        try scheduler.processDue()
    }

    func advance(by seconds: Int64) throws { try advance(to: clock.now().adding(seconds)) }

    @discardableResult
    func addEvent(
        _ title: String, start: CalendarDate, duration: Int64 = 3600, alarms: [Alarm],
        rule: String? = nil, url: String? = nil
    ) throws -> Event {
        var e = Event(
            title: title, calendar: try store.defaultCalendarForNewEvents().identifier, start: start,
            duration: duration)
        e.alarms = alarms
        e.url = url
        if let rule { e.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        return try store.save(e)
    }

    @discardableResult
    func addReminder(
        _ title: String, due: CalendarDate?, alarms: [Alarm], rule: String? = nil,
        priority: Int = 0
    ) throws -> Reminder {
        var r = Reminder(title: title, calendar: try store.defaultCalendarForNewReminders().identifier)
        r.dueDate = due
        r.alarms = alarms
        r.priority = priority
        if let rule { r.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
        return try store.save(r)
    }

    /// All changes committed so far, as the store's change stream would deliver them.
    func pendingChanges(after sequence: Int64) async throws -> ChangeSet {
        var iterator = store.changes(after: sequence).makeAsyncIterator()
        return await iterator.next()!
    }
}

func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Instant {
    Instant(secondsSince1970: LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s).localSeconds)
}

func at(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> CalendarDate {
    .utc(LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi))
}
