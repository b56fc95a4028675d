import ChimeCore
import ChimeLanguage
import ChimeDesktop
import ChimeScheduler
import ChimeStore
import CLinuxShim
import Foundation
import Logging
import ServiceLifecycle

/// `chime daemon`: opens the store, takes the one-daemon-per-store lock on its file, picks the notifier,
/// and runs the scheduler until SIGTERM or SIGINT; with `busService`, its D-Bus service too.
///
/// ```swift
/// try await Daemon.run(storePath: path, configuration: DaemonConfiguration(), notifier: nil)
/// ```
public enum Daemon {
    public static func run(
        storePath: String, configuration: DaemonConfiguration,
        notifier override: DaemonConfiguration.Notifier?, location: LocationSource? = nil,
        replaySpeed: ReplayProvider.Speed = .realTime, busService: Bool = false
    ) async throws {
        let started = ContinuousClock.now
        var logger = Logger(label: "chime")
        logger.logLevel = configuration.logLevel
        // The store first: it refuses what is not a store file of ours before anything is locked.
        let store = try EventStore(path: storePath, longLived: true)
        let lock = try DaemonLock.acquire(forStore: storePath)
        defer { lock.release() }
        let bus: (any DaemonBusAPI)? = busService ? ChimeBusAPI(store: store, alarmDefaults: configuration.scheduler.alarmDefaults) : nil
        let deliveredSink = try makeSink(override ?? configuration.notifier, logger: logger, soundPlayer: soundPlayer(logger: logger))
        defer { deliveredSink.shutdown() }
        let announcing = bus.map { api in AnnouncingSink(deliveredSink, announce: { api.alarmDelivered($0) }) }
        let sink: any NotificationSink = announcing ?? deliveredSink

        let clock = SystemWallClock()
        let scheduler = AlarmScheduler(
            store: store, sink: sink, clock: clock, zone: store.floatingZone,
            settings: configuration.scheduler,
            opener: deliveredSink is LibnotifySink ? XDGOpener() : nil,
            commandRunner: SpawnedCommandRunner(logger: logger), logger: logger,
            locale: { [locale = DaemonLocale(environment: ProcessInfo.processInfo.environment)] in locale.messages() })
        let source = location ?? configuration.location
        let provider = try makeLocationProvider(source, speed: replaySpeed, clock: clock)
        defer { provider?.shutdown() }
        let geofences = provider.map {
            GeofenceMonitor(
                store: store, settings: configuration.geofence, zone: store.floatingZone, providerName: $0.name,
                logger: logger)
        }
        if provider == nil { logger.notice("location alarms are off (location = none): geofences never fire") }
        let firstSleep = FirstSleepReporter(
            started: started, logger: logger,
            afterStart: {
                // The start decoded every item with alarms; SQLite's page caches and the heap it freed
                // are given back to the system.
                // (Not GRDB's releaseMemory(): closing the reader connections disposes their dispatch
                // queues, which wakes a worker of libdispatch's global queues and so starts its
                // one-second pool monitor for good.)
                store.releaseCaches()
                malloc_trim(0)
            })
        let service = SchedulerService(
            scheduler: scheduler, geofences: geofences, locationProvider: provider,
            zone: { SystemZone.current() }, onSleep: { firstSleep.report(deadline: $0) })
        logger.info(
            "starting",
            metadata: [
                "store": "\(storePath)", "notifier": "\(deliveredSink.name)",
                "location": "\(provider?.name ?? "none")",
                "pid": "\(ProcessInfo.processInfo.processIdentifier)"
            ])
        var syncLogger = Logger(label: "chime.sync")
        syncLogger.logLevel = configuration.logLevel
        let sync = SyncService(store: store, settings: configuration.sync, logger: syncLogger, onScreen: scheduler.onScreen)
        var services: [any Service] = [
            LifecycleAdapter(service: service), SyncLifecycle(service: sync),
            StoreFileWatch(store: store, logger: logger)
        ]
        if let bus, let announcing { services.append(BusLifecycle(api: bus, store: store, sink: announcing, logger: logger)) }
        let group = ServiceGroup(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
        logger.info("stopped")
    }

    /// The position source: GeoClue2 (started only once a fence is armed), a replayed track, a
    /// fixed point, or none.
    public static func makeLocationProvider(
        _ source: LocationSource, speed: ReplayProvider.Speed,
        clock: any WallClock
    ) throws -> (any LocationProvider)? {
        switch source {
        case .none: return nil
        case .geoclue: return GeoClueProvider(desktopID: "chime")
        case .fixed(let coordinate, let accuracy): return FixedProvider(coordinate, accuracy: accuracy, clock: clock)
        case .replay(let path):
            do { return try ReplayProvider.load(path: path, speed: speed, clock: clock) } catch {
                throw DaemonError.locationUnavailable("\(error)")
            }
        }
    }

    /// libnotify when asked for, or (auto) when a server answers; otherwise standard output,
    /// said once on stderr.
    static func makeSink(
        _ choice: DaemonConfiguration.Notifier, logger: Logger,
        soundPlayer: (any SoundPlayer)? = nil
    ) throws -> any NotificationSink {
        switch choice {
        case .stdout: return StdoutSink()
        case .libnotify:
            do { return try LibnotifySink.connect(soundPlayer: soundPlayer) } catch { throw DaemonError.notifierUnavailable(error.description) }
        case .auto:
            do { return try LibnotifySink.connect(soundPlayer: soundPlayer) } catch {
                logger.notice("no notification server answers (\(error)); alarms go to standard output as JSON lines")
                return StdoutSink()
            }
        }
    }
}

extension Daemon {
    /// libcanberra for alarm sounds the notification server does not play; each failure is logged
    /// (a machine without a sound card says so once per alarm, and the notification still shows).
    static func soundPlayer(logger: Logger) -> CanberraPlayer {
        CanberraPlayer { name, result in
            switch result {
            case .success: logger.info("playing the alarm sound", metadata: ["sound": "\(name)"])
            case .failure(let error):
                logger.notice("could not play the alarm sound", metadata: ["sound": "\(name)", "error": "\(error)"])
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

/// Ends the daemon when its store file is deleted or replaced under it: SQLite would go on with the
/// deleted file, where no command's change arrives and no new alarm fires (a `chime add` after the
/// deletion creates a new store). Ending with an error (status 1) lets the unit's
/// `Restart=on-failure` start the daemon again on the file now at that path.
private struct StoreFileWatch: Service {
    let store: EventStore
    let logger: Logger
    func run() async throws {
        let why: String? = await cancelWhenGracefulShutdown {
            for await why in store.fileReplacements { return why }
            return nil
        }
        guard let why else { return }
        logger.error("the store file changed under the daemon (\(why)); stopping, to start again on the file at that path")
        throw DaemonError.storeReplaced(why)
    }
}

/// Runs the CalDAV sync beside the scheduler; it ends with the group.
private struct SyncLifecycle: Service {
    let service: SyncService
    func run() async throws {
        try await cancelWhenGracefulShutdown { try await service.run() }
    }
}

/// Logs "scheduled, sleeping" once, with the start-up time; later sleeps log at debug level.
private final class FirstSleepReporter: @unchecked Sendable {
    // @unchecked: `reported` is touched only by the scheduler task.
    let started: ContinuousClock.Instant
    let logger: Logger
    /// Runs once, after the first "scheduled, sleeping".
    let afterStart: () -> Void
    var reported = false

    init(started: ContinuousClock.Instant, logger: Logger, afterStart: @escaping () -> Void = {}) {
        self.started = started
        self.logger = logger
        self.afterStart = afterStart
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
        afterStart()
    }
}
