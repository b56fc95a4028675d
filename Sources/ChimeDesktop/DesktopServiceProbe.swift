import CLibnotify
import ChimeCore
import Foundation

/// One-shot questions to the desktop's D-Bus services, each answered within a deadline whatever
/// the bus does (`chime doctor`): which notification server runs and what it can do, and whether
/// GeoClue2 is on the system bus. Nothing is shown, started or registered.
///
/// ```swift
/// switch DesktopServiceProbe.notificationServer(timeout: .seconds(2)) {
/// case .success(let server): print(server.name, server.version, server.capabilities)
/// case .failure(let problem): print("no notification server: \(problem)")
/// }
/// ```
public enum DesktopServiceProbe {
    /// Why a question got no answer: no bus, no service, or the deadline passed.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        /// The words Chime composed itself, for the user's language; nil for what GLib or the bus said.
        public let message: MessageText?

        init(_ description: String) {
            self.description = description
            message = nil
        }

        init(translatable template: StaticString, _ values: KeyValuePairs<String, String> = [:]) {
            let message = MessageText(template, values)
            self.message = message
            description = message.english
        }

        public static func == (a: Self, b: Self) -> Bool { a.description == b.description }
        public func hash(into hasher: inout Hasher) { hasher.combine(description) }
    }

    /// `GetServerInformation` and `GetCapabilities` of `org.freedesktop.Notifications` on the session bus.
    public static func notificationServer(
        timeout: Duration = .seconds(2),
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> Result<NotificationServerInfo, Problem>
    {
        if let missing = missingSessionBus(environment) { return .failure(missing) }
        return bounded(timeout) {
            withBus(G_BUS_TYPE_SESSION, timeout: timeout) { bus, ms in
                let info = try call(
                    bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                    "org.freedesktop.Notifications", "GetServerInformation", ms)
                defer { g_variant_unref(info) }
                let caps = try call(
                    bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                    "org.freedesktop.Notifications", "GetCapabilities", ms)
                defer { g_variant_unref(caps) }
                let fields = (0..<4).map { stringChild(info, $0) }
                let list = g_variant_get_child_value(caps, 0)!
                defer { g_variant_unref(list) }
                let capabilities = (0..<g_variant_n_children(list)).map { stringChild(list, $0) }
                return NotificationServerInfo(
                    name: fields[0], vendor: fields[1], version: fields[2],
                    specVersion: fields[3], capabilities: capabilities)
            }
        }
    }

    /// The systemd user manager's environment (the `Environment` property of
    /// `org.freedesktop.systemd1.Manager` on the session bus): what the services it starts next
    /// get, and where a desktop's change of language lands while they run (`systemctl --user
    /// set-environment`, `import-environment`, a new login). Never starts a manager.
    ///
    /// ```swift
    /// if case .success(let environment) = DesktopServiceProbe.userManagerEnvironment() { print(environment["LANG"] ?? "") }
    /// ```
    public static func userManagerEnvironment(
        timeout: Duration = .seconds(1),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<[String: String], Problem> {
        if let missing = missingSessionBus(environment) { return .failure(missing) }
        return bounded(timeout) {
            withBus(G_BUS_TYPE_SESSION, timeout: timeout) { bus, ms in
                let reply = try call(
                    bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.DBus.Properties", "Get", ms,
                    autoStart: false,
                    parameters: g_variant_new_tuple(
                        [g_variant_new_string("org.freedesktop.systemd1.Manager"), g_variant_new_string("Environment")], 2))
                defer { g_variant_unref(reply) }
                guard let boxed = g_variant_get_child_value(reply, 0) else { throw Problem("an empty answer") }
                defer { g_variant_unref(boxed) }
                guard let list = g_variant_get_variant(boxed), String(cString: g_variant_get_type_string(list)) == "as" else {
                    throw Problem("the Environment property is not a list of strings")
                }
                defer { g_variant_unref(list) }
                var result: [String: String] = [:]
                for index in 0..<g_variant_n_children(list) {
                    let line = stringChild(list, index)
                    guard let equals = line.firstIndex(of: "=") else { continue }
                    result[String(line[..<equals])] = String(line[line.index(after: equals)...])
                }
                return result
            }
        }
    }

    /// Whether GeoClue2 answers on the system bus.
    public enum GeoCluePresence: Hashable, Sendable {
        /// `org.freedesktop.GeoClue2` has an owner now.
        case running
        /// Not running, but the bus starts it on the first request (the usual case: it exits when idle).
        case activatable
    }

    /// `org.freedesktop.GeoClue2` on the system bus (`$DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
    public static func geoClue(timeout: Duration = .seconds(2)) -> Result<GeoCluePresence, Problem> {
        bounded(timeout) {
            withBus(G_BUS_TYPE_SYSTEM, timeout: timeout) { bus, ms in
                let name = "org.freedesktop.GeoClue2"
                let owned = try call(
                    bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                    "NameHasOwner", ms, autoStart: false, parameters: g_variant_new_tuple([g_variant_new_string(name)], 1))
                defer { g_variant_unref(owned) }
                let answer = g_variant_get_child_value(owned, 0)!
                defer { g_variant_unref(answer) }
                if g_variant_get_boolean(answer) != 0 { return .running }
                let names = try call(
                    bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                    "ListActivatableNames", ms, autoStart: false)
                defer { g_variant_unref(names) }
                let list = g_variant_get_child_value(names, 0)!
                defer { g_variant_unref(list) }
                if (0..<g_variant_n_children(list)).contains(where: { stringChild(list, $0) == name }) { return .activatable }
                throw Problem(translatable: "{service} is not on the system bus (not running, and the bus cannot start it)", ["service": name])
            }
        }
    }

    /// GLib would start a session bus of its own (`dbus-launch --autolaunch`) when none is
    /// configured: say so instead.
    static func missingSessionBus(_ environment: [String: String]) -> Problem? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return nil }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            FileManager.default.fileExists(atPath: runtime + "/bus")
        {
            return nil
        }
        return Problem(translatable: "no session bus in this session (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus)")
    }

    /// Runs `body` on a thread of its own and gives up waiting after `timeout`: a bus that accepts
    /// the connection and then never answers the handshake would block GLib's synchronous calls.
    /// A thread given up on is left behind; the process is about to exit.
    static func bounded<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () -> Result<T, Problem>)
        -> Result<T, Problem>
    {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = body()
            done.signal()
        }
        thread.start()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard done.wait(timeout: .now() + seconds) == .success, let result = box.result else {
            return .failure(Problem(translatable: "no answer within {seconds} s", ["seconds": seconds.formatted()]))
        }
        return result
    }

    /// A connection of its own to the bus (never the process's shared one), closed after `body`.
    private static func withBus<T>(
        _ type: GBusType, timeout: Duration,
        _ body: (OpaquePointer, Int32) throws -> T
    ) -> Result<T, Problem> {
        var error: UnsafeMutablePointer<GError>?
        guard let address = takeString(g_dbus_address_get_for_bus_sync(type, nil, &error)) else {
            return .failure(Problem(takeMessage(of: &error)))
        }
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let bus = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            return .failure(Problem("cannot connect to \(address): \(takeMessage(of: &error))"))
        }
        defer {
            g_dbus_connection_close_sync(bus, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(bus))
        }
        let ms = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        do { return .success(try body(bus, ms)) } catch { return .failure(error as? Problem ?? Problem("\(error)")) }
    }

    /// `autoStart`: let the bus start the service (libnotify's calls do, so a D-Bus-activated
    /// notification server counts as present).
    private static func call(
        _ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String,
        _ method: String, _ ms: Int32, autoStart: Bool = true,
        parameters: OpaquePointer? = nil
    ) throws(Problem) -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard
            let reply = g_dbus_connection_call_sync(
                bus, destination, path, interface, method, parameters, nil,
                autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START,
                ms, nil, &error)
        else {
            throw Problem(takeMessage(of: &error))
        }
        return reply
    }

    private static func stringChild(_ value: OpaquePointer, _ index: gsize) -> String {
        guard let child = g_variant_get_child_value(value, index) else { return "" }
        defer { g_variant_unref(child) }
        guard let text = g_variant_get_string(child, nil) else { return "" }
        return String(cString: text)
    }
}

/// The answer a ``DesktopServiceProbe/bounded(_:_:)`` thread leaves; read only after its semaphore.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, DesktopServiceProbe.Problem>?
}
