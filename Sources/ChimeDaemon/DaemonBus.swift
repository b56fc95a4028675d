import ChimeCore
import ChimeDesktop
import ChimeScheduler
import ChimeStore
import Logging
import ServiceLifecycle

/// What the daemon's D-Bus service answers with: the method handler (replies in the shapes of the
/// command line's `--json`, written by ChimeFormat), and what it is told while the daemon runs.
///
/// ```swift
/// try await Daemon.run(storePath: path, configuration: configuration, notifier: nil, busService: true)
/// ```
public protocol DaemonBusAPI: BusMethodHandler {
    /// The interface's introspection XML (`Config/io.github.chime.Chime1.xml`).
    var interfaceXML: String { get }
    /// The service, once it owns its name (for signals), the notification sink (access questions
    /// go on screen through it, beside the alarms), and the way to answer a firing as its
    /// notification's buttons do (Snooze, Dismiss over the bus).
    func attach(_ service: BusService, sink: any NotificationSink, respond: @escaping @Sendable (NotificationResponse) -> Void)
    /// A commit by any process (the store's change journal).
    func storeChanged(_ changes: ChangeSet) async
    /// A notification the server accepted.
    func alarmDelivered(_ notification: AlarmNotification)
    /// A client left, or the service's connection closed.
    func busEvent(_ event: BusEvent) async
}

/// The well-known name and object of Chime's D-Bus service: the ones its client calls.
public enum ChimeBusName {
    public static let name = ChimeBusClient.busName
    public static let objectPath = ChimeBusClient.objectPath
    public static let interface = ChimeBusClient.interfaceName
}

/// Tells the bus API about each notification the inner sink delivered (`AlarmFired`), and lets it
/// answer firings as the user does on the notification (its answers join the inner sink's).
final class AnnouncingSink: NotificationSink {
    let inner: any NotificationSink
    let announce: @Sendable (AlarmNotification) -> Void
    let responses: AsyncStream<NotificationResponse>
    private let answers: AsyncStream<NotificationResponse>.Continuation
    var name: String { inner.name }

    init(_ inner: any NotificationSink, announce: @escaping @Sendable (AlarmNotification) -> Void) {
        self.inner = inner
        self.announce = announce
        (responses, answers) = AsyncStream.makeStream(of: NotificationResponse.self)
        // The inner sink's answers are passed on; its end (at shutdown) ends the joined stream.
        Task { [answers] in
            for await response in inner.responses { answers.yield(response) }
            answers.finish()
        }
    }

    /// An answer from elsewhere (the D-Bus service), handled as if clicked on the notification.
    func respond(_ response: NotificationResponse) { answers.yield(response) }

    func deliver(_ notification: AlarmNotification, deliveredAtMilliseconds: Int64) throws(DeliveryError) {
        try inner.deliver(notification, deliveredAtMilliseconds: deliveredAtMilliseconds)
        // An item's details (shown on request) are no alarm firing: nothing to announce.
        if notification.kind != AlarmNotification.detailsKind { announce(notification) }
    }

    func withdraw(_ keys: Set<FiringKey>) { inner.withdraw(keys) }

    func ask(_ question: UserQuestion, answered: @escaping @Sendable (String?) -> Void) throws(DeliveryError) -> Int {
        try inner.ask(question, answered: answered)
    }

    func withdrawQuestion(_ id: Int) { inner.withdrawQuestion(id) }

    func shutdown() { inner.shutdown() }
}

/// Runs the D-Bus service beside the scheduler: owns the name, feeds the API the store's changes
/// and the bus's events, gives the name up at shutdown. Without a session bus, or with the name
/// taken, it says so once and the daemon goes on without it (alarms do not depend on it).
struct BusLifecycle: Service {
    let api: any DaemonBusAPI
    let store: EventStore
    let sink: AnnouncingSink
    let logger: Logger

    func run() async throws {
        var service: BusService
        do {
            service = try start()
        } catch {
            logger.notice("the D-Bus service is off (\(error.message)); alarms go on without it")
            // A service that returns ends the whole group: wait for the daemon's own end instead.
            try? await gracefulShutdown()
            return
        }
        logger.info("D-Bus service ready", metadata: ["name": "\(ChimeBusName.name)"])
        // The bus can drop the connection (a message over its limit, the bus daemon restarting); the
        // name is then gone for every app, so the service says so and takes it again.
        while let reason = await serve(service) {
            service.stop()
            logger.warning("the D-Bus connection closed (\(reason)); taking \(ChimeBusName.name) again")
            var wait = Duration.milliseconds(250)
            while true {
                do {
                    service = try start()
                    break
                } catch {
                    logger.warning("the D-Bus service cannot start again yet (\(error.message)); retrying in \(wait)")
                    // The daemon's shutdown ends the wait (and the service) at once.
                    let pause = wait
                    do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) } } catch { return }
                    wait = min(wait * 2, .seconds(60))
                }
            }
            logger.info("D-Bus service ready", metadata: ["name": "\(ChimeBusName.name)"])
        }
        service.stop()
    }

    private func start() throws(BusError) -> BusService {
        let service = try BusService.start(
            busName: ChimeBusName.name, objectPath: ChimeBusName.objectPath,
            interfaceXML: api.interfaceXML, interfaceName: ChimeBusName.interface, handler: api)
        api.attach(service, sink: sink, respond: { [sink] in sink.respond($0) })
        return service
    }

    /// Feeds the API until the daemon shuts down (nil) or the connection closes (why).
    private func serve(_ service: BusService) async -> String? {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: String?.self) { group in
                group.addTask {
                    for await changes in store.changes { await api.storeChanged(changes) }; return nil
                }
                group.addTask {
                    for await event in service.events {
                        if case .connectionClosed(let reason) = event { await api.busEvent(event); return reason }
                        await api.busEvent(event)
                    }
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
    }
}
