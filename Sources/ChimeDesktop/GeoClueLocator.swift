import CGeoclue
import ChimeCore

/// One GeoClue2 client, from `Manager.CreateClient` to `DeleteClient`, on the provider's GLib loop
/// thread (every method runs there; D-Bus replies and signals arrive there because the loop's
/// context is the thread's default). It reports each position, or one failure after which it is
/// closed; ``GeoClueSession`` decides what happens next.
///
/// ```swift
/// let locator = GeoClueLocator(desktopID: "chime", accuracy: .exact, distanceThresholdMetres: 0,
///                              timeThresholdSeconds: 0, startTimeoutMilliseconds: 20_000, context: context,
///                              clientCreated: {}) { locator, event in print(event) }
/// locator.start()            // .fix(48.85840,2.29450 ±1 m @ …) for the first position and every later one
/// locator.close()            // Stop + DeleteClient: GeoClue turns its sources off
/// ```
///
/// Why not `GClueSimple` (`gclue_simple_new_with_thresholds`): its asynchronous initialisation ends
/// only with the first position, and once the client is started its cancellable is no longer
/// looked at, so a start that finds no position (no GPS lock, no network for a city-level fix) can
/// neither be abandoned nor finished. The stranded object keeps its client started in GeoClue, and
/// since `GetClient` (which it uses) returns the same client to every caller on a connection, the
/// next attempt at another accuracy silently shares it and never gets a fix either (both verified
/// against GeoClue 2.6). Here every step is ours: `CreateClient` gives each attempt a client of
/// its own and closing always stops and deletes it.
final class GeoClueLocator {
    enum Event {
        case fix(LocationFix)
        /// The locator has closed itself; the text says why, for the user's log.
        case failed(String)
    }

    let accuracy: TrackingRequest.Accuracy
    private(set) var distanceThresholdMetres: UInt32
    private(set) var timeThresholdSeconds: UInt32
    private let desktopID: String
    private let startTimeoutMilliseconds: UInt32
    private let context: OpaquePointer
    private let clientCreated: () -> Void
    private let onEvent: (GeoClueLocator, Event) -> Void

    private enum Phase { case idle, connecting, starting, locating, closed }
    private var phase = Phase.idle
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private var connection: OpaquePointer?  // GDBusConnection *
    private var manager: OpaquePointer?  // GClueManager * (a GDBusProxy)
    private var clientPath: String?
    private var client: OpaquePointer?  // GClueClient * (a GDBusProxy)
    private var signalHandlers: [(instance: UnsafeMutableRawPointer, id: gulong)] = []
    private var startTimeout: UnsafeMutablePointer<GSource>?
    private var lastLocationPath: String?
    /// The unique bus name of the GeoClue process that holds our client.
    private var geoclueOwner: String?

    private static let busName = "org.freedesktop.GeoClue2"

    init(
        desktopID: String, accuracy: TrackingRequest.Accuracy, distanceThresholdMetres: UInt32,
        timeThresholdSeconds: UInt32, startTimeoutMilliseconds: UInt32, context: OpaquePointer,
        clientCreated: @escaping () -> Void, onEvent: @escaping (GeoClueLocator, Event) -> Void
    ) {
        self.desktopID = desktopID
        self.accuracy = accuracy
        self.distanceThresholdMetres = distanceThresholdMetres
        self.timeThresholdSeconds = timeThresholdSeconds
        self.startTimeoutMilliseconds = startTimeoutMilliseconds
        self.context = context
        self.clientCreated = clientCreated
        self.onEvent = onEvent
        cancellable = g_cancellable_new()
    }

    deinit { g_object_unref(cancellable) }

    /// Connects, creates and starts a client; the start timeout runs until the first position.
    func start() {
        guard phase == .idle else { return }
        phase = .connecting
        armStartTimeout()
        // Not cancellable: concurrent g_bus_get calls share one initialisation of the process's
        // system-bus connection, and cancelling ours would fail the next locator's too (seen in
        // GeoClueProviderTests). A connection that arrives after close() is simply let go.
        g_bus_get(
            G_BUS_TYPE_SYSTEM, nil,
            { _, result, userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeRetainedValue().busReady(result)
            }, retainedSelf())
    }

    /// New thresholds for the running client (or for the one being created). GeoClue applies them
    /// to the next positions; the accuracy level cannot change without a new client.
    func setThresholds(distanceMetres: UInt32, timeSeconds: UInt32) {
        guard phase != .closed else { return }
        if distanceMetres != distanceThresholdMetres, let client { gclue_client_set_distance_threshold(client, distanceMetres) }
        if timeSeconds != timeThresholdSeconds, let client { gclue_client_set_time_threshold(client, timeSeconds) }
        distanceThresholdMetres = distanceMetres
        timeThresholdSeconds = timeSeconds
    }

    /// Stops and deletes the client in GeoClue (so it turns its sources off) and drops everything.
    /// Nothing is reported afterwards; replies still on their way find the locator closed.
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        g_cancellable_cancel(cancellable)
        disarmStartTimeout()
        for handler in signalHandlers { g_signal_handler_disconnect(handler.instance, handler.id) }
        signalHandlers = []
        // Fire and forget: both are sent at once and need no answer. Stop first, so that the
        // sources go off even if DeleteClient were refused.
        if let client { gclue_client_call_stop(client, nil, nil, nil) }
        if let manager, let clientPath { gclue_manager_call_delete_client(manager, clientPath, nil, nil, nil) }
        for object in [client, manager, connection] { if let object { g_object_unref(UnsafeMutableRawPointer(object)) } }
        client = nil
        manager = nil
        connection = nil
    }

    // MARK: - Steps, each the callback of the one before

    private func busReady(_ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let bus = g_bus_get_finish(result, &error)
        let problem = takeMessage(of: &error)
        guard phase != .closed else {
            if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
            return
        }
        guard let bus else { return fail("cannot reach GeoClue2: no system bus (\(problem))") }
        // g_bus_get's connection raises SIGTERM in the whole process when the bus goes away: a
        // system-bus restart must cost the daemon its positions for a while, not its life.
        g_dbus_connection_set_exit_on_close(bus, 0)
        connection = bus
        connect(UnsafeMutableRawPointer(bus), "closed", Self.onConnectionClosed)
        gclue_manager_proxy_new(
            bus, GDBusProxyFlags(G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES.rawValue | G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS.rawValue),
            Self.busName, "/org/freedesktop/GeoClue2/Manager", cancellable,
            { _, result, userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeRetainedValue().managerReady(result)
            }, retainedSelf())
    }

    private func managerReady(_ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let proxy = gclue_manager_proxy_new_finish(result, &error)
        let problem = takeMessage(of: &error)
        guard phase != .closed else {
            if let proxy { g_object_unref(UnsafeMutableRawPointer(proxy)) }
            return
        }
        guard let proxy else { return fail("cannot reach GeoClue2: \(problem)") }
        manager = proxy
        // Not cancellable: if GeoClue creates the client after all (2.6 answers only once a location
        // agent is running, maybe after we gave up), the reply names it and clientCreated deletes it.
        gclue_manager_call_create_client(
            proxy, nil,
            { source, result, userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeRetainedValue()
                    .clientCreated(by: OpaquePointer(source), result)
            }, retainedSelf())
    }

    private func clientCreated(by manager: OpaquePointer?, _ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        var path: UnsafeMutablePointer<gchar>?
        let created = gclue_manager_call_create_client_finish(manager, &path, result, &error) != 0
        let problem = takeMessage(of: &error)
        let clientPath = takeString(path)
        guard phase != .closed else {
            if created, let clientPath { gclue_manager_call_delete_client(manager, clientPath, nil, nil, nil) }
            return
        }
        guard created, let clientPath, let connection else { return fail("GeoClue2 gave no client: \(problem)") }
        self.clientPath = clientPath
        clientCreated()
        gclue_client_proxy_new(
            connection, G_DBUS_PROXY_FLAGS_NONE, Self.busName, clientPath, cancellable,
            { _, result, userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeRetainedValue().clientProxyReady(result)
            }, retainedSelf())
    }

    private func clientProxyReady(_ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let proxy = gclue_client_proxy_new_finish(result, &error)
        let problem = takeMessage(of: &error)
        guard phase != .closed else {
            if let proxy { g_object_unref(UnsafeMutableRawPointer(proxy)) }
            return
        }
        guard let proxy else { return fail("GeoClue2 gave no client: \(problem)") }
        client = proxy
        geoclueOwner = takeString(g_dbus_proxy_get_name_owner(UnsafeMutablePointer<GDBusProxy>(proxy)))
        // Property writes are sent in order ahead of Start, which GeoClue handles in that order.
        gclue_client_set_desktop_id(proxy, desktopID)
        gclue_client_set_requested_accuracy_level(proxy, UInt32(accuracy.rawValue))
        gclue_client_set_distance_threshold(proxy, distanceThresholdMetres)
        gclue_client_set_time_threshold(proxy, timeThresholdSeconds)
        connect(UnsafeMutableRawPointer(proxy), "location-updated", Self.onLocationUpdated)
        connect(UnsafeMutableRawPointer(proxy), "notify::g-name-owner", Self.onNameOwnerChanged)
        phase = .starting
        gclue_client_call_start(
            proxy, cancellable,
            { source, result, userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeRetainedValue().started(OpaquePointer(source), result)
            }, retainedSelf())
    }

    private func started(_ proxy: OpaquePointer?, _ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let started = gclue_client_call_start_finish(proxy, result, &error) != 0
        let problem = takeMessage(of: &error)
        guard phase != .closed else { return }
        guard started, let client else { return fail("GeoClue2 refused to locate for \"\(desktopID)\": \(problem)") }
        // A position may have come before this reply; the Location property names it then.
        if let path = gclue_client_get_location(client) { locationUpdated(String(cString: path)) }
    }

    /// GeoClue publishes each position as a new object: read its properties in one call.
    private func locationUpdated(_ path: String) {
        guard phase == .starting || phase == .locating, path != "/", path != lastLocationPath, let connection else { return }
        lastLocationPath = path
        var arguments: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.GeoClue2.Location")]
        g_dbus_connection_call(
            connection, Self.busName, path, "org.freedesktop.DBus.Properties", "GetAll",
            g_variant_new_tuple(&arguments, 1), nil, G_DBUS_CALL_FLAGS_NONE, -1, cancellable,
            { source, result, userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeRetainedValue().propertiesRead(OpaquePointer(source), result)
            }, retainedSelf())
    }

    private func propertiesRead(_ connection: OpaquePointer?, _ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_finish(connection, result, &error)
        _ = takeMessage(of: &error)  // a failed read: GeoClue dropped the object for a newer one, whose update follows
        guard let reply else { return }
        defer { g_variant_unref(reply) }
        guard phase == .starting || phase == .locating, let properties = g_variant_get_child_value(reply, 0) else { return }
        defer { g_variant_unref(properties) }
        guard let fix = LocationFix(geoClueProperties: properties) else { return }
        if phase == .starting {
            phase = .locating
            disarmStartTimeout()
        }
        onEvent(self, .fix(fix))
    }

    // MARK: - Failure

    private func fail(_ message: String) {
        guard phase != .closed else { return }
        close()
        onEvent(self, .failed(message))
    }

    private func armStartTimeout() {
        guard let source = g_timeout_source_new(startTimeoutMilliseconds) else { return }
        g_source_set_callback(
            source,
            { userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeUnretainedValue().startTimedOut()
                return 0  // G_SOURCE_REMOVE
            }, retainedSelf(),
            { userData in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).release()
            })
        g_source_attach(source, context)
        startTimeout = source
    }

    private func disarmStartTimeout() {
        guard let source = startTimeout else { return }
        startTimeout = nil
        g_source_destroy(source)
        g_source_unref(source)
    }

    private func startTimedOut() {
        disarmStartTimeout()
        let seconds = Double(startTimeoutMilliseconds) / 1000
        let limit = seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
        switch phase {
        case .connecting:
            fail(
                """
                GeoClue2 gave no client within \(limit): GeoClue 2.6 answers only once a location agent runs \
                for this user (the desktop's, or /usr/libexec/geoclue-2.0/demos/agent)
                """)
        case .starting:
            fail("GeoClue2 found no position within \(limit) at accuracy \(accuracy): no location source answered")
        case .idle, .locating, .closed:
            break
        }
    }

    /// Our client lived in the process that owned the name; whoever owns it now has never heard of it.
    private func nameOwnerChanged() {
        guard let client else { return }
        let owner = takeString(g_dbus_proxy_get_name_owner(UnsafeMutablePointer<GDBusProxy>(client)))
        guard owner != geoclueOwner else { return }
        fail(owner == nil ? "GeoClue2 left the system bus" : "GeoClue2 restarted")
    }

    private func connectionClosed() {
        fail("the system bus connection closed")
    }

    // MARK: - Signals

    /// g_signal_connect is a macro; this is its expansion. Each handler owns a reference to the
    /// locator, dropped when the handler is disconnected (close) or its object finalised.
    private func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: GCallback) {
        let id = g_signal_connect_data(
            instance, signal, handler, retainedSelf(),
            { userData, _ in
                Unmanaged<GeoClueLocator>.fromOpaque(userData!).release()
            }, GConnectFlags(rawValue: 0))
        signalHandlers.append((instance, id))
    }

    /// "location-updated" (GClueClient *, const char *old, const char *new, gpointer).
    private static let onLocationUpdated = unsafeBitCast(
        { (_: OpaquePointer?, _: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?, userData: UnsafeMutableRawPointer?) in
            guard let new, let userData else { return }
            Unmanaged<GeoClueLocator>.fromOpaque(userData).takeUnretainedValue().locationUpdated(String(cString: new))
        } as @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void,
        to: GCallback.self)

    /// "notify::g-name-owner" (GObject *, GParamSpec *, gpointer): GeoClue left the bus or restarted.
    private static let onNameOwnerChanged = unsafeBitCast(
        { (_: UnsafeMutableRawPointer?, _: UnsafeMutableRawPointer?, userData: UnsafeMutableRawPointer?) in
            guard let userData else { return }
            Unmanaged<GeoClueLocator>.fromOpaque(userData).takeUnretainedValue().nameOwnerChanged()
        } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
        to: GCallback.self)

    /// "closed" (GDBusConnection *, gboolean remote_peer_vanished, GError *, gpointer). The connection
    /// is shared by the process and emits on the context it was made on, which may be another
    /// thread's: hop to ours before touching anything.
    private static let onConnectionClosed = unsafeBitCast(
        { (_: OpaquePointer?, _: gboolean, _: UnsafeMutableRawPointer?, userData: UnsafeMutableRawPointer?) in
            guard let userData else { return }
            let locator = Unmanaged<GeoClueLocator>.fromOpaque(userData).takeUnretainedValue()
            g_main_context_invoke_full(
                locator.context, G_PRIORITY_DEFAULT,
                { userData in
                    Unmanaged<GeoClueLocator>.fromOpaque(userData!).takeUnretainedValue().connectionClosed()
                    return 0  // G_SOURCE_REMOVE
                }, locator.retainedSelf(),
                { userData in
                    Unmanaged<GeoClueLocator>.fromOpaque(userData!).release()
                })
        } as @convention(c) (OpaquePointer?, gboolean, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
        to: GCallback.self)

    /// A reference for one pending callback, which takes it back (takeRetainedValue or release).
    private func retainedSelf() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }
}
