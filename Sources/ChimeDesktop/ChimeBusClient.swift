import CLibnotify
import ChimeCore
import ChimeStore
import Foundation
import Synchronization

/// A client of the running daemon's D-Bus service (`io.github.chime.Chime`, docs/dbus.md): what
/// an app uses instead of opening the store file, and what `chime --via-bus` uses. It mirrors
/// the read and write side of `EventStore` in the service's terms: access first, then calendars,
/// occurrences in a window, reminders, one item, upcoming alarms, add, remove, complete, and a
/// stream of change notifications. Data comes back as the JSON `chime --json` prints.
///
/// ```swift
/// let chime = try ChimeBusClient.connect()
/// if try await chime.requestAccess(to: .reminder) == .authorized {
///     let json = try await chime.reminders(completed: false)          // as `chime reminders --json`
///     _ = try await chime.addReminder(["title": "Call the dentist", "due": "tomorrow 10am"])
/// }
/// for await change in try await chime.changes() { print(change.sequence, change.entityTypes) }
/// ```
public final class ChimeBusClient: Sendable {
    public static let busName = "io.github.chime.Chime"
    public static let objectPath = "/io/github/chime/Chime1"
    public static let interfaceName = "io.github.chime.Chime1"

    /// A `Changed` signal: the journal sequence to resume from and the entity types touched.
    public struct Change: Hashable, Sendable {
        public var sequence: UInt64
        public var entityTypes: [String]
    }

    private let loopThread: GLibMainLoopThread
    private let connection: SendablePointer
    private let signals = Mutex(SignalRouting())

    private struct SignalRouting {
        var responses: [String: CheckedContinuation<String, Never>] = [:]
        /// Answers that came before anyone waited (the prompt can be answered fast).
        var earlyResponses: [String: String] = [:]
        var changes: [UUID: AsyncStream<Change>.Continuation] = [:]
        var alarms: [UUID: AsyncStream<String>.Continuation] = [:]
        var subscription: guint = 0
    }

    private init(loopThread: GLibMainLoopThread, connection: SendablePointer) {
        self.loopThread = loopThread
        self.connection = connection
    }

    deinit {
        let connection = connection, routing = signals.withLock { $0.subscription }
        _ = loopThread.perform {
            if routing != 0 { g_dbus_connection_signal_unsubscribe(connection.raw, routing) }
            g_object_unref(UnsafeMutableRawPointer(connection.raw))
        }
        loopThread.stop()
    }

    /// Connects to the session bus. The daemon itself is reached (and, where its activation file
    /// is installed, started) by the first call.
    public static func connect() throws(BusError) -> ChimeBusClient {
        let loopThread = GLibMainLoopThread(name: "chime-bus-client")
        let opened = loopThread.perform { openSessionBusConnection() }
        switch opened {
        case .success(let connection)?:
            let client = ChimeBusClient(loopThread: loopThread, connection: connection)
            client.subscribeToSignals()
            return client
        case .failure(let error)?:
            loopThread.stop()
            throw error
        case nil:
            throw BusError("Stopped", "the D-Bus thread stopped")
        }
    }

    // MARK: Access

    /// `GetAuthorizationStatus`: where this app stands for `entity`.
    public func authorizationStatus(for entity: EntityType) async throws(BusError) -> AuthorizationStatus {
        try Self.status(try await string("GetAuthorizationStatus", [.string(entity.rawValue)]))
    }

    private static func status(_ text: String) throws(BusError) -> AuthorizationStatus {
        guard let status = AuthorizationStatus(rawValue: text) else { throw BusError("BadReply", "unknown status \"\(text)\"") }
        return status
    }

    /// `RequestAccess`, then the `Response` signal when the user is asked: returns `.authorized`,
    /// `.denied`, `.restricted`, or `.notDetermined` when the question was closed unanswered.
    public func requestAccess(to entity: EntityType) async throws(BusError) -> AuthorizationStatus {
        let reply = try await call("RequestAccess", [.string(entity.rawValue)])
        guard case .objectPath(let handle)? = reply.first, case .string(let status)? = reply.dropFirst().first else {
            throw BusError("BadReply", "RequestAccess answered \(reply)")
        }
        guard status == AuthorizationStatus.notDetermined.rawValue else { return try Self.status(status) }
        let answer: String = await withCheckedContinuation { waiter in
            let early = signals.withLock { routing -> String? in
                if let answer = routing.earlyResponses.removeValue(forKey: handle) { return answer }
                routing.responses[handle] = waiter
                return nil
            }
            if let early { waiter.resume(returning: early) }
        }
        return try Self.status(answer)
    }

    // MARK: Reading (JSON as the command line prints it)

    /// As `chime calendar list --json`, for the entity types this app may use.
    public func calendars() async throws(BusError) -> String { try await string("Calendars", []) }

    /// As `chime agenda --json`: the occurrences from `start` to `end`.
    public func events(from start: Instant, to end: Instant) async throws(BusError) -> String {
        try await string("Events", [.int64(start.secondsSince1970), .int64(end.secondsSince1970)])
    }

    /// As `chime reminders --json` (`completed`: the done ones).
    public func reminders(completed: Bool) async throws(BusError) -> String {
        try await string("Reminders", [.bool(completed)])
    }

    /// As `chime show REF --json`.
    public func item(_ reference: String) async throws(BusError) -> String { try await string("Item", [.string(reference)]) }

    /// As `chime alarms --json` for the next `hours`.
    public func upcomingAlarms(hours: UInt32) async throws(BusError) -> String {
        try await string("UpcomingAlarms", [.uint32(hours)])
    }

    // MARK: Writing

    /// `AddEvent`: fields `title`, `start`, `end` or `duration`, `all_day`, `calendar`, `notes`,
    /// `location`, `url`, `time_zone`. Returns the saved event's JSON.
    public func addEvent(_ fields: [String: String]) async throws(BusError) -> String {
        try await string("AddEvent", [.fields(fields)])
    }

    /// `AddReminder`: fields `title`, `due`, `start`, `list`, `notes`, `priority`, `time_zone`.
    public func addReminder(_ fields: [String: String]) async throws(BusError) -> String {
        try await string("AddReminder", [.fields(fields)])
    }

    /// `Edit`: fields `title`, `notes`, `location`, `url`, and for reminders `due`, `priority`.
    /// Returns the item's JSON as saved.
    public func edit(_ reference: String, _ fields: [String: String], span: String = "this") async throws(BusError) -> String {
        try await string("Edit", [.string(reference), .fields(fields), .string(span)])
    }

    /// `Snooze` a firing (a key from ``alarmsFired()``'s JSON) for `choice` (`10m`, `1h`,
    /// `tomorrow 9:00`; empty: the first configured choice); `Dismiss` it.
    public func snooze(_ key: String, for choice: String = "") async throws(BusError) {
        _ = try await call("Snooze", [.string(key), .string(choice)])
    }

    public func dismiss(_ key: String) async throws(BusError) { _ = try await call("Dismiss", [.string(key)]) }

    /// `Remove`: `span` is `this` or `future`.
    public func remove(_ reference: String, span: String = "this") async throws(BusError) {
        _ = try await call("Remove", [.string(reference), .string(span)])
    }

    /// `Complete` or `Uncomplete`; returns the reminder's JSON.
    public func complete(_ reference: String, done: Bool = true) async throws(BusError) -> String {
        try await string(done ? "Complete" : "Uncomplete", [.string(reference)])
    }

    /// `Changes`: the journal entries after `sequence` (a ``Change``'s, or the one ``changes()``
    /// started from), as JSON; `truncated` says some were compacted away.
    public func changes(after sequence: UInt64) async throws(BusError) -> String {
        try await string("Changes", [.uint64(sequence)])
    }

    // MARK: Signals

    /// Subscribes and streams `Changed` signals (EventKit's change notification, with the journal
    /// sequence to resume from). The stream ends when this client goes.
    public func changes() async throws(BusError) -> AsyncStream<Change> {
        _ = try await call("Subscribe", [])
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        let token = UUID()
        signals.withLock { $0.changes[token] = continuation }
        continuation.onTermination = { [weak self] _ in self?.signals.withLock { _ = $0.changes.removeValue(forKey: token) } }
        return stream
    }

    /// Subscribes and streams `AlarmFired` signals (their JSON).
    public func alarmsFired() async throws(BusError) -> AsyncStream<String> {
        _ = try await call("Subscribe", [])
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let token = UUID()
        signals.withLock { $0.alarms[token] = continuation }
        continuation.onTermination = { [weak self] _ in self?.signals.withLock { _ = $0.alarms.removeValue(forKey: token) } }
        return stream
    }

    // MARK: Plumbing

    private func string(_ method: String, _ arguments: [BusValue]) async throws(BusError) -> String {
        let reply = try await call(method, arguments)
        guard case .string(let text)? = reply.first else { throw BusError("BadReply", "\(method) answered \(reply)") }
        return text
    }

    /// One method call, answered on the loop thread (a call never blocks a Swift concurrency thread).
    public func call(_ method: String, _ arguments: [BusValue]) async throws(BusError) -> [BusValue] {
        let result: Result<[BusValue], BusError> = await withCheckedContinuation { waiter in
            let box = Unmanaged.passRetained(CallReply(done: { waiter.resume(returning: $0) })).toOpaque()
            let posted = loopThread.perform { [connection] in
                g_dbus_connection_call(
                    connection.raw, Self.busName, Self.objectPath, Self.interfaceName, method,
                    GVariantCoding.tuple(arguments), nil, G_DBUS_CALL_FLAGS_NONE, -1, nil,
                    { source, result, userData in
                        let reply = Unmanaged<CallReply>.fromOpaque(userData!).takeRetainedValue()
                        var error: UnsafeMutablePointer<GError>?
                        guard let answer = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                            let remote = error.flatMap { takeString(g_dbus_error_get_remote_error($0)) }
                            if error != nil { g_dbus_error_strip_remote_error(error) }
                            let message = takeMessage(of: &error)
                            return reply.done(.failure(BusError(remote ?? "Failed", message)))
                        }
                        defer { g_variant_unref(answer) }
                        reply.done(.success(GVariantCoding.values(ofTuple: answer)))
                    }, box)
            }
            if posted == nil {
                Unmanaged<CallReply>.fromOpaque(box).release()
                waiter.resume(returning: .failure(BusError("Stopped", "the client is closed")))
            }
        }
        return try result.get()
    }

    private func subscribeToSignals() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let id = loopThread.perform { [connection] in
            g_dbus_connection_signal_subscribe(
                connection.raw, Self.busName, Self.interfaceName, nil, Self.objectPath, nil,
                G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, signal, parameters, userData in
                    guard let signal, let parameters else { return }
                    let client = Unmanaged<ChimeBusClient>.fromOpaque(userData!).takeUnretainedValue()
                    client.route(String(cString: signal), GVariantCoding.values(ofTuple: parameters))
                }, context, nil)
        }
        signals.withLock { $0.subscription = id ?? 0 }
    }

    private func route(_ signal: String, _ values: [BusValue]) {
        switch (signal, values.first, values.dropFirst().first, values.dropFirst(2).first) {
        case ("Response", .objectPath(let handle)?, _, .string(let status)?):
            let waiter = signals.withLock { routing -> CheckedContinuation<String, Never>? in
                guard let waiter = routing.responses.removeValue(forKey: handle) else {
                    routing.earlyResponses[handle] = status
                    return nil
                }
                return waiter
            }
            waiter?.resume(returning: status)
        case ("Changed", .uint64(let sequence)?, .strings(let types)?, _):
            for continuation in signals.withLock({ Array($0.changes.values) }) {
                continuation.yield(Change(sequence: sequence, entityTypes: types))
            }
        case ("AlarmFired", .string(let json)?, _, _):
            for continuation in signals.withLock({ Array($0.alarms.values) }) { continuation.yield(json) }
        default: break
        }
    }
}

private final class CallReply {
    let done: @Sendable (Result<[BusValue], BusError>) -> Void
    init(done: @escaping @Sendable (Result<[BusValue], BusError>) -> Void) { self.done = done }
}
