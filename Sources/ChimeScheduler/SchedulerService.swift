import ChimeCore
import ChimeStore
import Logging

/// Runs an ``AlarmScheduler``: sleeps on the wall clock until the next firing, and wakes early
/// for store changes (from any process), the user's answers to notifications, and clock or
/// time-zone changes. One task handles all of them in arrival order; nothing polls.
///
/// ```swift
/// let service = SchedulerService(scheduler: scheduler, zone: { SystemZone.current() })
/// try await service.run()      // until the task is cancelled
/// ```
public final class SchedulerService: @unchecked Sendable {
    // @unchecked: `scheduler` is used only by the task inside `run()`; the rest is immutable.
    private let scheduler: AlarmScheduler
    private let currentZone: @Sendable () -> ZoneRules
    private let onSleep: (@Sendable (Instant?) -> Void)?

    private enum Input: Sendable {
        case woke(WakeReason)
        case changes(ChangeSet)
        case response(NotificationResponse)
    }

    /// - Parameters:
    ///   - zone: reads the system time zone again after a clock change (a new `/etc/localtime`).
    ///   - onSleep: called each time the service goes to sleep, with the deadline (for tests and
    ///     the "scheduled, sleeping" log line).
    public init(scheduler: AlarmScheduler, zone: @escaping @Sendable () -> ZoneRules,
                onSleep: (@Sendable (Instant?) -> Void)? = nil) {
        self.scheduler = scheduler
        self.currentZone = zone
        self.onSleep = onSleep
    }

    /// Starts the scheduler (catch-up included) and runs until cancelled.
    public func run() async throws {
        let store = scheduler.store, sink = scheduler.sink, clock = scheduler.clock
        // Subscribe from the journal position before loading, so no change falls in between.
        let sequence = try store.currentChangeSequence()
        try scheduler.start()
        let mailbox = Mailbox<Input>()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await changeSet in store.changes(after: sequence) { mailbox.post(.changes(changeSet)) }
            }
            group.addTask {
                for await response in sink.responses { mailbox.post(.response(response)) }
            }
            await loop(mailbox: mailbox, clock: clock)
            group.cancelAll()
        }
    }

    private func loop(mailbox: Mailbox<Input>, clock: any WallClock) async {
        while !Task.isCancelled {
            let deadline = scheduler.nextDeadline()
            onSleep?(deadline)
            let sleeper = Task {
                do { mailbox.post(.woke(try await clock.sleep(until: deadline))) } catch {}
            }
            guard let first = await mailbox.next() else {
                sleeper.cancel()
                return
            }
            sleeper.cancel()
            for input in [first] + mailbox.drain() { handle(input) }
        }
    }

    private func handle(_ input: Input) {
        do {
            switch input {
            case .woke(.deadline): try scheduler.processDue()
            case .woke(.clockChanged): try scheduler.clockChanged(zone: currentZone())
            case .changes(let changeSet): try scheduler.apply(changeSet)
            case .response(let response): try scheduler.respond(response)
            }
        } catch {
            // The store is busy or damaged: log, keep running; the next wake retries.
            scheduler.logger.error("scheduler step failed", metadata: ["error": "\(error)"])
        }
    }
}
