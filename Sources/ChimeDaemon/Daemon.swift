import ChimeCore
import ChimeDesktop
import ChimeScheduler
import ChimeStore
import Foundation
import Logging
import ServiceLifecycle

/// `chime daemon`: opens the store, takes the one-daemon-per-store lock, picks the notifier,
/// and runs the scheduler until SIGTERM or SIGINT.
///
/// ```swift
/// try await Daemon.run(storePath: path, configuration: DaemonConfiguration(), notifier: nil)
/// ```
public enum Daemon {
    public static func run(storePath: String, configuration: DaemonConfiguration,
                           notifier override: DaemonConfiguration.Notifier?) async throws {
        let started = ContinuousClock.now
        var logger = Logger(label: "chime")
        logger.logLevel = configuration.logLevel
        let lock = try DaemonLock.acquire(forStore: storePath)
        defer { lock.release() }
        let store = try EventStore(path: storePath)
        let sink = try makeSink(override ?? configuration.notifier, logger: logger)
        defer { sink.shutdown() }

        let clock = SystemWallClock()
        let scheduler = AlarmScheduler(store: store, sink: sink, clock: clock, zone: store.floatingZone,
                                       settings: configuration.scheduler, logger: logger)
        let firstSleep = FirstSleepReporter(started: started, logger: logger)
        let service = SchedulerService(scheduler: scheduler, zone: { SystemZone.current() },
                                       onSleep: { firstSleep.report(deadline: $0) })
        logger.info("starting", metadata: ["store": "\(storePath)", "notifier": "\(sink.name)",
                                           "pid": "\(ProcessInfo.processInfo.processIdentifier)"])
        let group = ServiceGroup(services: [LifecycleAdapter(service: service)],
                                 gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
        logger.info("stopped")
    }

    /// libnotify when asked for, or (auto) when a server answers; otherwise standard output,
    /// said once on stderr.
    static func makeSink(_ choice: DaemonConfiguration.Notifier, logger: Logger) throws -> any NotificationSink {
        switch choice {
        case .stdout: return StdoutSink()
        case .libnotify:
            do { return try LibnotifySink.connect() } catch { throw DaemonError.notifierUnavailable(error.description) }
        case .auto:
            do { return try LibnotifySink.connect() } catch {
                logger.notice("no notification server answers (\(error)); alarms go to standard output as JSON lines")
                return StdoutSink()
            }
        }
    }
}

/// Runs the scheduler as a swift-service-lifecycle service: SIGTERM/SIGINT end it gracefully.
private struct LifecycleAdapter: Service {
    let service: SchedulerService
    func run() async throws {
        try await cancelWhenGracefulShutdown { try await service.run() }
    }
}

/// Logs "scheduled, sleeping" once, with the start-up time; later sleeps log at debug level.
private final class FirstSleepReporter: @unchecked Sendable {
    // @unchecked: `reported` is touched only by the scheduler task.
    let started: ContinuousClock.Instant
    let logger: Logger
    var reported = false

    init(started: ContinuousClock.Instant, logger: Logger) {
        self.started = started
        self.logger = logger
    }

    func report(deadline: Instant?) {
        let next = deadline.map { "\($0)" } ?? "none"
        if reported {
            logger.debug("sleeping", metadata: ["next": "\(next)"])
            return
        }
        reported = true
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("scheduled, sleeping", metadata: ["next": "\(next)", "startup_ms": "\(String(format: "%.1f", ms))"])
    }
}
