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
    private let geofences: GeofenceMonitor?
    private let locationProvider: (any LocationProvider)?
    private let currentZone: @Sendable () -> ZoneRules
    private let onSleep: (@Sendable (Instant?) -> Void)?

    private enum Input: Sendable {
        case woke(WakeReason)
        case changes(ChangeSet)
        case response(NotificationResponse)
        case location(LocationUpdate)
    }

    /// - Parameters:
    ///   - zone: reads the system time zone again after a clock change (a new `/etc/localtime`).
    ///   - geofences, locationProvider: location alarms; fixes from the provider go through the
    ///     monitor, and what fires is delivered by the scheduler (same sink, same ledger).
    ///   - onSleep: called each time the service goes to sleep, with the deadline (for tests and
    ///     the "scheduled, sleeping" log line).
    public init(
        scheduler: AlarmScheduler, geofences: GeofenceMonitor? = nil, locationProvider: (any LocationProvider)? = nil,
        zone: @escaping @Sendable () -> ZoneRules, onSleep: (@Sendable (Instant?) -> Void)? = nil
    ) {
        self.scheduler = scheduler
        self.geofences = geofences
        self.locationProvider = geofences == nil ? nil : locationProvider
        self.currentZone = zone
        self.onSleep = onSleep
    }

    /// Starts the scheduler (catch-up included) and runs until cancelled.
    public func run() async throws {
        let store = scheduler.store, sink = scheduler.sink, clock = scheduler.clock
        // Subscribe from the journal position before loading, so no change falls in between.
        let sequence = try store.currentChangeSequence()
        try scheduler.start()
        if let geofences {
            // A store error here must not stop timed alarms: the monitor re-arms at its next chance.
            do { try geofences.load(now: clock.now()) } catch {
                scheduler.logger.error("could not arm geofences", metadata: ["error": "\(error)"])
            }
            updateTracking()
        }
        let mailbox = Mailbox<Input>()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await changeSet in store.changes(after: sequence) { mailbox.post(.changes(changeSet)) }
            }
            group.addTask {
                for await response in sink.responses { mailbox.post(.response(response)) }
            }
            if let provider = self.locationProvider {
                group.addTask {
                    for await update in provider.updates { mailbox.post(.location(update)) }
                }
            }
            await loop(mailbox: mailbox, clock: clock)
            group.cancelAll()
        }
    }

    private func loop(mailbox: Mailbox<Input>, clock: any WallClock) async {
        while !Task.isCancelled {
            let nextAlarm = scheduler.nextDeadline()
            scheduler.onScreen.setNextAlarm(nextAlarm)
            let deadline = [nextAlarm, geofences?.nextDeadline].compactMap { $0 }.min()
            let knownZone = scheduler.zone.identifier
            let sleeper = Task { [currentZone, onSleep] in
                onSleep?(deadline)
                // The clock's zone watch exists only while it sleeps: a zone changed since the
                // scheduler last read it (while it was awake, or before this task ran) is seen here.
                if currentZone().identifier != knownZone {
                    mailbox.post(.woke(.clockChanged))
                    return
                }
                do { mailbox.post(.woke(try await clock.sleep(until: deadline))) } catch {}
            }
            guard let first = await mailbox.next() else {
                sleeper.cancel()
                return
            }
            sleeper.cancel()
            for input in [first] + mailbox.drain() { handle(input) }
            updateTracking()
        }
    }

    /// Tells the provider when the tracking level the fences need has changed.
    private func updateTracking() {
        guard let geofences, let locationProvider, let update = geofences.trackingUpdate() else { return }
        locationProvider.request(update)
    }

    private func handle(_ input: Input) {
        let now = scheduler.clock.now()
        var zone: ZoneRules?
        do {
            switch input {
            case .woke(.deadline): try scheduler.processDue()
            case .woke(.clockChanged):
                zone = currentZone()
                try scheduler.clockChanged(zone: zone!)
            case .changes(let changeSet): try scheduler.apply(changeSet)
            case .response(let response): try scheduler.respond(response)
            case .location: break
            }
        } catch {
            // The store is busy or damaged: log, keep running; the next wake retries.
            scheduler.logger.error("scheduler step failed", metadata: ["error": "\(error)"])
        }
        guard let geofences else { return }
        // A step of its own: a failed timed step must not keep fences from being re-armed.
        do {
            let firings: [AlarmFiring]
            switch input {
            case .woke(.deadline): firings = try geofences.wake(now: now)
            case .woke(.clockChanged): firings = try geofences.clockChanged(zone: zone ?? currentZone(), now: now)
            case .changes(let changeSet): firings = try geofences.apply(changeSet, now: now)
            case .response: firings = []
            case .location(.fix(let fix)): firings = try geofences.process(fix, now: now)
            case .location(.unavailable(let reason)):
                // The provider says this once per outage and keeps trying; timed alarms go on.
                scheduler.logger.notice("no location: geofence alarms wait for a position", metadata: ["reason": "\(reason)"])
                geofences.providerUnavailable()
                firings = []
            }
            do { try scheduler.deliver(firings) } catch {
                geofences.deliveryFailed()
                throw error
            }
        } catch {
            scheduler.logger.error("geofence step failed", metadata: ["error": "\(error)"])
        }
    }
}
