import CLibnotify
import Synchronization

/// A value crossing the bus: the D-Bus types Chime's interface uses.
public enum BusValue: Hashable, Sendable {
    case string(String)
    case objectPath(String)
    case int64(Int64)
    case uint32(UInt32)
    case uint64(UInt64)
    case bool(Bool)
    case strings([String])
    /// `a{ss}`: named fields, e.g. a new reminder's title and due date.
    case fields([String: String])
}

/// A D-Bus error reply: its name (`io.github.chime.Chime1.Error.NotAuthorized`) and a sentence.
public struct BusError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String
    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }
    public var description: String { "\(name): \(message)" }
}

/// What a reply may hold. A message over the bus's limit (128 MiB by default, 32 MiB on some
/// systems) makes the bus daemon drop the sender's connection, and with it the service's name for
/// every app: so an error never echoes a caller's argument whole, and an answer larger than any
/// bus takes is refused with an error that says so.
public enum BusLimits {
    /// The longest error message sent, in UTF-8 bytes.
    public static let errorMessageBytes = 1024
    /// The largest answer sent (the strings it carries, in UTF-8 bytes), well inside 32 MiB.
    public static let replyBytes = 16 * 1_048_576

    /// `message` cut to at most ``errorMessageBytes`` bytes on a character boundary, marked with "…".
    public static func bounded(_ message: String) -> String {
        guard message.utf8.count > errorMessageBytes else { return message }
        var cut = ""
        var bytes = 0
        for character in message {
            let length = character.utf8.count
            guard bytes + length <= errorMessageBytes - 3 else { break }
            cut.append(character)
            bytes += length
        }
        return cut + "…"
    }

    /// About how many bytes `values` take in a message (their text; numbers count 8).
    public static func size(of values: [BusValue]) -> Int {
        values.reduce(0) { total, value in
            switch value {
            case .string(let s), .objectPath(let s): total + s.utf8.count
            case .strings(let list): total + list.reduce(0) { $0 + $1.utf8.count + 4 }
            case .fields(let fields): total + fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 8 }
            case .int64, .uint32, .uint64, .bool: total + 8
            }
        }
    }
}

/// Who called: the bus connection and the app behind it, as the desktop knows it.
public struct BusCaller: Hashable, Sendable {
    /// The caller's unique connection name (`:1.42`): where replies and its signals go.
    public var uniqueName: String
    public var processID: UInt32?
    public var userID: UInt32?
    public var app: AppIdentity

    public init(uniqueName: String, processID: UInt32?, userID: UInt32?, app: AppIdentity) {
        self.uniqueName = uniqueName
        self.processID = processID
        self.userID = userID
        self.app = app
    }
}

/// What happens on the bus besides method calls.
public enum BusEvent: Hashable, Sendable {
    /// A client's connection closed (it exited or was killed): drop what it subscribed or asked.
    case peerVanished(uniqueName: String)
    /// The service's own connection to the bus closed (the bus daemon dropped it, or stopped): the
    /// name is gone for every app until the service is started again. The last event.
    case connectionClosed(reason: String)
}

/// Answers the method calls of one D-Bus interface. Called off the GLib thread, once per call;
/// a thrown ``BusError`` becomes the error reply.
public protocol BusMethodHandler: Sendable {
    func handle(_ method: String, _ arguments: [BusValue], from caller: BusCaller) async throws(BusError) -> [BusValue]
}

/// One object with one interface on the session bus under a well-known name, on a GDBus
/// connection of its own and a GLib main-loop thread of its own: every method call is answered
/// by a ``BusMethodHandler`` after the caller was identified (``AppIdentity``), signals go to one
/// connection at a time (never broadcast: a broadcast reaches every listener, authorized or not).
///
/// ```swift
/// let service = try BusService.start(busName: "io.github.chime.Chime", objectPath: "/io/github/chime/Chime1",
///                                    interfaceXML: xml, interfaceName: "io.github.chime.Chime1", handler: api)
/// service.emit("Changed", [.uint64(42)], to: subscriber.uniqueName)
/// for await event in service.events { … }
/// service.stop()
/// ```
public final class BusService: Sendable {
    public let busName: String
    public let objectPath: String
    public let interfaceName: String
    /// Vanished peers, and the connection closing, in order.
    public let events: AsyncStream<BusEvent>
    private let loopThread: GLibMainLoopThread
    private let state: LoopConfined<ServiceState>
    private let connection: SendablePointer

    private init(
        busName: String, objectPath: String, interfaceName: String, events: AsyncStream<BusEvent>,
        loopThread: GLibMainLoopThread, state: LoopConfined<ServiceState>, connection: SendablePointer
    ) {
        self.busName = busName
        self.objectPath = objectPath
        self.interfaceName = interfaceName
        self.events = events
        self.loopThread = loopThread
        self.state = state
        self.connection = connection
    }

    /// Connects to the session bus (`$DBUS_SESSION_BUS_ADDRESS`, or the bus at `address`), exports
    /// the object and takes `busName`. Throws when there is no session bus, the XML does not define
    /// the interface, or another process owns the name.
    public static func start(
        busName: String, objectPath: String, interfaceXML: String, interfaceName: String,
        handler: any BusMethodHandler, address: String? = nil
    ) throws(BusError) -> BusService {
        let loopThread = GLibMainLoopThread(name: "chime-dbus")
        let (stream, continuation) = AsyncStream.makeStream(of: BusEvent.self)
        let opened: Result<(SendablePointer, LoopConfined<ServiceState>), BusError>? = loopThread.perform {
            let connection: OpaquePointer
            switch openSessionBusConnection(address: address) {
            case .success(let opened): connection = opened.raw
            case .failure(let failure): return .failure(failure)
            }
            var error: UnsafeMutablePointer<GError>?
            guard let node = g_dbus_node_info_new_for_xml(interfaceXML, &error) else {
                g_object_unref(UnsafeMutableRawPointer(connection))
                return .failure(BusError("BadInterface", takeMessage(of: &error)))
            }
            defer { g_dbus_node_info_unref(node) }
            guard let interface = g_dbus_node_info_lookup_interface(node, interfaceName) else {
                g_object_unref(UnsafeMutableRawPointer(connection))
                return .failure(BusError("BadInterface", "the XML does not define \(interfaceName)"))
            }
            let state = ServiceState(connection: connection, handler: handler, events: continuation)
            let confined = LoopConfined(state)
            if let failure = state.register(objectPath: objectPath, interface: interface) {
                g_object_unref(UnsafeMutableRawPointer(connection))
                return .failure(failure)
            }
            state.watchConnection()
            if let failure = state.requestName(busName) {
                state.close()
                return .failure(failure)
            }
            return .success((SendablePointer(connection), confined))
        }
        switch opened {
        case .success(let (connection, state))?:
            return BusService(
                busName: busName, objectPath: objectPath, interfaceName: interfaceName, events: stream,
                loopThread: loopThread, state: state, connection: connection)
        case .failure(let error)?:
            loopThread.stop()
            continuation.finish()
            throw error
        case nil:
            continuation.finish()
            throw BusError("Stopped", "the D-Bus thread stopped")
        }
    }

    /// Sends `signal` of the interface to one connection (unicast). GDBus may be called from any thread.
    public func emit(_ signal: String, _ values: [BusValue], to destination: String) {
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(
            connection.raw, destination, objectPath, interfaceName, signal,
            GVariantCoding.tuple(values), &error) == 0
        {
            _ = takeMessage(of: &error)  // the peer left: nothing to tell it
        }
    }

    /// Gives up the name, unexports the object and closes the connection. Idempotent.
    public func stop() {
        _ = loopThread.perform { self.state.value.close() }
        loopThread.stop()
    }
}

/// A private connection to the session bus (`$DBUS_SESSION_BUS_ADDRESS`), not GLib's shared one:
/// libnotify keeps that, and a connection closing must not take the process with it. Call on the
/// loop thread that will own it. `address`: a bus other than the session's (a test's own).
func openSessionBusConnection(address given: String? = nil) -> Result<SendablePointer, BusError> {
    var error: UnsafeMutablePointer<GError>?
    guard let address = given.map({ g_strdup($0) }) ?? g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
        return .failure(BusError("NoSessionBus", "no session bus: \(takeMessage(of: &error))"))
    }
    defer { g_free(address) }
    let flags = GDBusConnectionFlags(
        rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
            | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
        return .failure(BusError("NoSessionBus", "cannot connect to the session bus: \(takeMessage(of: &error))"))
    }
    g_dbus_connection_set_exit_on_close(connection, 0)
    return .success(SendablePointer(connection))
}

/// A GLib pointer handed between threads; GDBus connections may be used from any thread.
struct SendablePointer: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
}

/// Everything the service keeps on its loop thread: the connection, the identity cache, the
/// notification server's current owner (signals from anyone else are ignored).
private final class ServiceState {
    let connection: OpaquePointer
    let handler: any BusMethodHandler
    let events: AsyncStream<BusEvent>.Continuation
    var registration: guint = 0
    var subscriptions: [guint] = []
    var callers: [String: BusCaller] = [:]
    /// The `NameOwnerChanged` subscription of each caller being identified or known.
    var callerWatches: [String: guint] = [:]
    var closed = false
    var closedHandler: gulong = 0

    init(connection: OpaquePointer, handler: any BusMethodHandler, events: AsyncStream<BusEvent>.Continuation) {
        self.connection = connection
        self.handler = handler
        self.events = events
    }

    var unretained: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> ServiceState {
        Unmanaged<ServiceState>.fromOpaque(pointer!).takeUnretainedValue()
    }

    func register(objectPath: String, interface: UnsafeMutablePointer<GDBusInterfaceInfo>) -> BusError? {
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, sender, _, _, method, parameters, invocation, userData in
            guard let invocation else { return }
            let state = ServiceState.from(userData)
            guard let sender, let method else {
                g_dbus_method_invocation_return_dbus_error(
                    invocation, "org.freedesktop.DBus.Error.AccessDenied",
                    "a caller without a bus name cannot be identified")
                return
            }
            let arguments = parameters.map(GVariantCoding.values(ofTuple:)) ?? []
            state.dispatch(
                method: String(cString: method), arguments: arguments, sender: String(cString: sender),
                invocation: SendablePointer(invocation))
        }
        var error: UnsafeMutablePointer<GError>?
        // Unretained: the state outlives the registration (close() unregisters before it goes).
        registration = g_dbus_connection_register_object(connection, objectPath, interface, &vtable, unretained, nil, &error)
        return registration == 0 ? BusError("BadInterface", takeMessage(of: &error)) : nil
    }

    /// Only signals Chime acts on reach it (``watchVanishing(of:)``): the end of a caller's connection. Every client
    /// that connects to the session bus changes some name's owner; a desktop's apps coming and going
    /// would each wake an idle daemon if it listened to them all.
    /// The connection's "closed" signal: the bus dropped it (a message over its limit, the bus
    /// daemon going away). Reported as the stream's last event, so that the owner can log it and
    /// start the service again; nothing else would notice that the name is gone.
    func watchConnection() {
        // g_signal_connect is a macro; this is its expansion. Signature of "closed":
        // (GDBusConnection*, gboolean remote_peer_vanished, GError*, gpointer).
        let onClosed: @convention(c) (UnsafeMutableRawPointer?, gboolean, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void = {
            _, remoteVanished, error, userData in
            let state = ServiceState.from(userData)
            guard !state.closed else { return }
            let reason =
                error.flatMap { $0.pointee.message.map { String(cString: $0) } }
                ?? (remoteVanished != 0 ? "the bus closed the connection" : "the connection was closed")
            state.events.yield(.connectionClosed(reason: reason))
            state.events.finish()
        }
        // Unretained: the state outlives the connection's signal (close() disconnects it first).
        closedHandler = g_signal_connect_data(
            UnsafeMutableRawPointer(connection), "closed",
            unsafeBitCast(onClosed, to: GCallback.self), unretained, nil, GConnectFlags(rawValue: 0))
    }

    /// `NameOwnerChanged` for one name (the bus daemon matches its first argument).
    private func subscribeToOwnerChanges(of name: String) -> guint {
        g_dbus_connection_signal_subscribe(
            connection, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
            name, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, userData in
                guard let parameters else { return }
                let values = GVariantCoding.values(ofTuple: parameters)
                guard values.count == 3, case .string(let name) = values[0], case .string(let newOwner) = values[2] else { return }
                ServiceState.from(userData).ownerChanged(name: name, newOwner: newOwner)
            }, unretained, nil)
    }

    /// Listens for `caller`'s connection closing, once. Asked before its credentials are: the bus
    /// handles one connection's messages in order, so either the credentials call fails (the caller
    /// is already gone) or the signal comes after the answer.
    private func watchVanishing(of caller: String) {
        guard callerWatches[caller] == nil else { return }
        callerWatches[caller] = subscribeToOwnerChanges(of: caller)
    }

    private func forget(_ caller: String) {
        callers[caller] = nil
        if let watch = callerWatches.removeValue(forKey: caller) { g_dbus_connection_signal_unsubscribe(connection, watch) }
    }

    func requestName(_ name: String) -> BusError? {
        var error: UnsafeMutablePointer<GError>?
        let doNotQueue: UInt32 = 4
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus", "RequestName",
            GVariantCoding.tuple([.string(name), .uint32(doNotQueue)]),
            nil, G_DBUS_CALL_FLAGS_NONE, 5_000, nil, &error)
        guard let reply else { return BusError("NameTaken", "cannot ask for \(name): \(takeMessage(of: &error))") }
        defer { g_variant_unref(reply) }
        let primaryOwner: UInt32 = 1
        guard case .uint32(let answer)? = GVariantCoding.values(ofTuple: reply).first, answer == primaryOwner else {
            return BusError("NameTaken", "another process owns \(name) on the session bus")
        }
        return nil
    }

    func close() {
        guard !closed else { return }
        closed = true
        if closedHandler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), closedHandler) }
        if registration != 0 { g_dbus_connection_unregister_object(connection, registration) }
        for id in subscriptions + callerWatches.values { g_dbus_connection_signal_unsubscribe(connection, id) }
        callerWatches = [:]
        var error: UnsafeMutablePointer<GError>?
        _ = g_dbus_connection_close_sync(connection, nil, &error)
        _ = takeMessage(of: &error)
        g_object_unref(UnsafeMutableRawPointer(connection))
        events.finish()
    }

    // MARK: Calls

    func dispatch(method: String, arguments: [BusValue], sender: String, invocation: SendablePointer) {
        identify(sender) { [handler] caller in
            guard let caller else {
                g_dbus_method_invocation_return_dbus_error(
                    invocation.raw, "org.freedesktop.DBus.Error.AccessDenied",
                    "the calling process could not be identified")
                return
            }
            Task {
                do throws(BusError) {
                    let values = try await handler.handle(method, arguments, from: caller)
                    let size = BusLimits.size(of: values)
                    guard size <= BusLimits.replyBytes else {
                        throw BusError(
                            "org.freedesktop.DBus.Error.LimitsExceeded",
                            "the answer would be \(size / 1_048_576) MiB, more than a reply may hold "
                                + "(\(BusLimits.replyBytes / 1_048_576) MiB): ask for less (a shorter window)")
                    }
                    g_dbus_method_invocation_return_value(invocation.raw, GVariantCoding.tuple(values))
                } catch {
                    g_dbus_method_invocation_return_dbus_error(invocation.raw, error.name, BusLimits.bounded(error.message))
                }
            }
        }
    }

    /// The caller behind a unique name, from the bus daemon's credentials and `/proc`; cached until
    /// the name goes away (a unique name is never reused).
    func identify(_ sender: String, then done: @escaping @Sendable (BusCaller?) -> Void) {
        if let known = callers[sender] { return done(known) }
        watchVanishing(of: sender)
        let pending = PendingIdentity(sender: sender, state: self, done: done)
        g_dbus_connection_call(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionCredentials", GVariantCoding.tuple([.string(sender)]),
            chime_type_credentials_reply(), G_DBUS_CALL_FLAGS_NONE, 5_000, nil,
            { source, result, userData in
                let pending = Unmanaged<PendingIdentity>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                guard let reply else {
                    _ = takeMessage(of: &error)
                    pending.state.forget(pending.sender)
                    return pending.done(nil)
                }
                defer { g_variant_unref(reply) }
                let credentials = GVariantCoding.credentials(reply)
                guard let pid = credentials.processID, let app = AppIdentity.ofProcess(pid) else {
                    pending.state.forget(pending.sender)
                    return pending.done(nil)
                }
                let caller = BusCaller(uniqueName: pending.sender, processID: pid, userID: credentials.userID, app: app)
                // (Watched again if a failed lookup of the same caller, made meanwhile, dropped the watch.)
                pending.state.watchVanishing(of: pending.sender)
                pending.state.callers[pending.sender] = caller
                pending.done(caller)
            }, Unmanaged.passRetained(pending).toOpaque())
    }

    func ownerChanged(name: String, newOwner: String) {
        guard name.hasPrefix(":"), newOwner.isEmpty else { return }
        forget(name)
        events.yield(.peerVanished(uniqueName: name))
    }
}

private final class PendingIdentity {
    let sender: String
    let state: ServiceState
    let done: @Sendable (BusCaller?) -> Void
    init(sender: String, state: ServiceState, done: @escaping @Sendable (BusCaller?) -> Void) {
        self.sender = sender
        self.state = state
        self.done = done
    }
}

/// GVariant in and out for ``BusValue``: built values are floating (the call or signal that takes
/// them sinks them); children read are new references, released here.
enum GVariantCoding {
    static func variant(_ value: BusValue) -> OpaquePointer {
        switch value {
        case .string(let s): return g_variant_new_string(s)
        case .objectPath(let p): return g_variant_new_object_path(p)
        case .int64(let n): return g_variant_new_int64(gint64(n))
        case .uint32(let n): return g_variant_new_uint32(guint32(n))
        case .uint64(let n): return g_variant_new_uint64(guint64(n))
        case .bool(let b): return g_variant_new_boolean(b ? 1 : 0)
        case .strings(let list):
            let children: [OpaquePointer?] = list.map { g_variant_new_string($0) }
            return children.withUnsafeBufferPointer { g_variant_new_array(chime_type_string(), $0.baseAddress, gsize($0.count)) }
        case .fields(let map):
            let children: [OpaquePointer?] = map.sorted { $0.key < $1.key }.map {
                g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_string($0.value))
            }
            return children.withUnsafeBufferPointer { g_variant_new_array(chime_type_string_entry(), $0.baseAddress, gsize($0.count)) }
        }
    }

    static func tuple(_ values: [BusValue], then extra: [OpaquePointer] = []) -> OpaquePointer {
        let children: [OpaquePointer?] = values.map(variant) + extra
        return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// `a{sv}` from keys and (floating) values.
    static func vardict(_ entries: [(String, OpaquePointer?)]) -> OpaquePointer {
        let children: [OpaquePointer?] = entries.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1)) }
        return children.withUnsafeBufferPointer { g_variant_new_array(chime_type_vardict_entry(), $0.baseAddress, gsize($0.count)) }
    }

    /// The children of a tuple, as far as Chime's types go (others are left out).
    static func values(ofTuple tuple: OpaquePointer) -> [BusValue] {
        (0..<Int(g_variant_n_children(tuple))).compactMap { index in
            let child = g_variant_get_child_value(tuple, gsize(index))!
            defer { g_variant_unref(child) }
            return value(child)
        }
    }

    static func value(_ v: OpaquePointer) -> BusValue? {
        let type = String(cString: g_variant_get_type_string(v))
        switch type {
        case "s": return .string(String(cString: g_variant_get_string(v, nil)))
        case "o": return .objectPath(String(cString: g_variant_get_string(v, nil)))
        case "x": return .int64(Int64(g_variant_get_int64(v)))
        case "u": return .uint32(UInt32(g_variant_get_uint32(v)))
        case "t": return .uint64(UInt64(g_variant_get_uint64(v)))
        case "b": return .bool(g_variant_get_boolean(v) != 0)
        case "as":
            return .strings(
                (0..<Int(g_variant_n_children(v))).map { index in
                    let child = g_variant_get_child_value(v, gsize(index))!
                    defer { g_variant_unref(child) }
                    return String(cString: g_variant_get_string(child, nil))
                })
        case "a{ss}":
            var map: [String: String] = [:]
            for index in 0..<Int(g_variant_n_children(v)) {
                let entry = g_variant_get_child_value(v, gsize(index))!
                defer { g_variant_unref(entry) }
                if case .string(let key) = values(ofTuple: entry).first, case .string(let text) = values(ofTuple: entry).last {
                    map[key] = text
                }
            }
            return .fields(map)
        default: return nil
        }
    }

    /// `ProcessID` and `UnixUserID` out of `GetConnectionCredentials`' `(a{sv})` reply.
    static func credentials(_ reply: OpaquePointer) -> (processID: UInt32?, userID: UInt32?) {
        guard let dict = g_variant_get_child_value(reply, 0) else { return (nil, nil) }
        defer { g_variant_unref(dict) }
        func uint(_ key: String) -> UInt32? {
            guard let boxed = g_variant_lookup_value(dict, key, nil) else { return nil }
            defer { g_variant_unref(boxed) }
            guard case .uint32(let n)? = value(boxed) else { return nil }
            return n
        }
        return (uint("ProcessID"), uint("UnixUserID"))
    }
}
