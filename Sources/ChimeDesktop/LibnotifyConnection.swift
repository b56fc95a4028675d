import CLibnotify
import ChimeCore
import ChimeScheduler

/// libnotify as ``LibnotifySink`` drives it: initialisation, showing, the notifications on screen and
/// their callbacks. Every method runs on the sink's ``GLibMainLoopThread`` (libnotify is not
/// thread-safe, and its D-Bus proxy delivers signals on the context of the thread that created it).
///
/// ```swift
/// let opened = loopThread.perform {
///     LibnotifyConnection.open(appName: "Chime", desktopEntry: "chime",
///                              context: loopThread.mainContext, responses: continuation)
/// }
/// ```
final class LibnotifyConnection {
    let server: NotificationServerInfo
    private let appName: String
    private let desktopEntry: String?
    private let context: OpaquePointer
    private let responses: AsyncStream<NotificationResponse>.Continuation

    /// Shown and not closed yet; holding the entry keeps its `NotifyNotification` alive, which
    /// libnotify needs in order to deliver its action and "closed" callbacks.
    private var shown: [Int: ShownNotification] = [:]
    private var lastID = 0
    /// Closed notifications whose last reference is dropped from an idle callback, not from inside
    /// their own "closed" signal emission.
    private var releaseLater: [UnsafeMutablePointer<NotifyNotification>] = []
    private var releaseScheduled = false
    private var isClosed = false

    private init(
        server: NotificationServerInfo, appName: String, desktopEntry: String?, context: OpaquePointer,
        responses: AsyncStream<NotificationResponse>.Continuation
    ) {
        self.server = server
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.context = context
        self.responses = responses
    }

    /// Initialises libnotify and checks that a notification server answers on the session bus.
    static func open(
        appName: String, desktopEntry: String?, context: OpaquePointer,
        responses: AsyncStream<NotificationResponse>.Continuation,
        serverTimeoutMilliseconds: Int32
    ) -> Result<LibnotifyConnection, DeliveryError> {
        // Our own GetServerInformation call first: libnotify's waits up to 25 s and drops the
        // error text, and the daemon wants a prompt, readable reason to fall back to stdout.
        if let problem = probeServer(timeoutMilliseconds: serverTimeoutMilliseconds) {
            return .failure(DeliveryError("no notification server answers on the session bus: \(problem)"))
        }
        guard notify_init(appName) != 0 else {
            return .failure(DeliveryError("notify_init(\"\(appName)\") failed"))
        }
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        var specVersion: UnsafeMutablePointer<CChar>?
        guard notify_get_server_info(&name, &vendor, &version, &specVersion) != 0 else {
            notify_uninit()
            return .failure(
                DeliveryError(
                    "no notification server answers on the session bus: libnotify could not read its server information"))
        }
        let server = NotificationServerInfo(
            name: takeString(name) ?? "", vendor: takeString(vendor) ?? "", version: takeString(version) ?? "",
            specVersion: takeString(specVersion) ?? "", capabilities: serverCapabilities())
        return .success(
            LibnotifyConnection(
                server: server, appName: appName, desktopEntry: desktopEntry,
                context: context, responses: responses))
    }

    /// Why no server answers, or nil when one does.
    private static func probeServer(timeoutMilliseconds: Int32) -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard var bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            return takeMessage(of: &error)
        }
        // After the bus closed our connection (a message too large for it), GDBus hands out the
        // closed shared connection until its "closed" handling has run, which is dispatched on
        // this thread's main context: let it run, then ask again.
        var waits = 0
        while g_dbus_connection_is_closed(bus) != 0 && waits < 100 {
            g_object_unref(UnsafeMutableRawPointer(bus))
            while g_main_context_iteration(g_main_context_get_thread_default(), 0) != 0 {}
            usleep(10_000)
            waits += 1
            guard let next = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { return takeMessage(of: &error) }
            bus = next
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        guard
            let reply = g_dbus_connection_call_sync(
                bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                "org.freedesktop.Notifications", "GetServerInformation", nil, nil, G_DBUS_CALL_FLAGS_NONE,
                timeoutMilliseconds, nil, &error)
        else {
            return takeMessage(of: &error)
        }
        g_variant_unref(reply)
        return nil
    }

    private static func serverCapabilities() -> [String] {
        let list = notify_get_server_caps()
        defer { g_list_free_full(list, g_free) }
        var capabilities: [String] = []
        var node = list
        while let current = node {
            if let text = current.pointee.data { capabilities.append(String(cString: text.assumingMemoryBound(to: CChar.self))) }
            node = current.pointee.next
        }
        return capabilities
    }

    /// Shows `n` and keeps it alive until it is closed.
    func show(_ n: AlarmNotification) -> Result<Void, DeliveryError> {
        present(
            summary: n.summary, body: n.body, keys: n.keys, urgency: Self.urgency(n.urgency), category: n.category,
            timeoutMilliseconds: NOTIFY_EXPIRES_NEVER,  // an alarm stays until answered
            sound: server.soundName(for: n), actions: n.actions.map { (key: $0.key, label: n.label(for: $0)) }, answered: nil
        ).map { _ in () }
    }

    /// Shows a question (normal urgency, expiring: never critical, never on screen for ever) and
    /// keeps it alive until it is answered or closed; returns its id.
    func ask(_ question: UserQuestion, answered: @escaping @Sendable (String?) -> Void) -> Result<Int, DeliveryError> {
        guard server.supportsActions else {
            return .failure(DeliveryError("the notification server (\(server.name)) shows no buttons to answer with"))
        }
        return present(
            summary: question.summary, body: question.body, keys: [], urgency: NOTIFY_URGENCY_NORMAL, category: "x-chime.question",
            timeoutMilliseconds: question.expirySeconds * 1000, sound: nil,
            actions: question.buttons.map { (key: $0.key, label: $0.label) }, answered: answered)
    }

    /// Closes a question; its `answered` hears nil.
    func withdrawQuestion(_ id: Int) {
        guard let entry = shown[id], let answered = entry.answered, !entry.isAnswered else { return }
        entry.isAnswered = true
        answered(nil)
        close(entry)
    }

    /// Asks the server to close `entry`; when it refuses, no "closed" signal will come for it, so
    /// it is forgotten here.
    private func close(_ entry: ShownNotification) {
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(entry.handle, &error) == 0 {
            _ = takeMessage(of: &error)
            forget(entry)
        }
    }

    private func present(
        summary: String, body plainBody: String, keys: [FiringKey], urgency: NotifyUrgency, category: String,
        timeoutMilliseconds: Int32, sound: String?, actions: [(key: String, label: String)],
        answered: (@Sendable (String?) -> Void)?
    ) -> Result<Int, DeliveryError> {
        guard !isClosed else { return .failure(DeliveryError("the libnotify sink is shut down")) }
        // A server reading markup would mangle "R&D <sync>" in plain text, or reject the body.
        let body = server.supportsBodyMarkup ? Self.escapedMarkup(plainBody) : plainBody
        // The icon by its theme name: the one `make install` puts in hicolor and the desktop file
        // names. Servers such as dunst do not look it up through the desktop-entry hint.
        guard let handle = notify_notification_new(summary, body, Self.iconName) else {
            return .failure(DeliveryError("notify_notification_new failed"))
        }
        notify_notification_set_app_name(handle, appName)
        notify_notification_set_urgency(handle, urgency)
        notify_notification_set_category(handle, category)
        notify_notification_set_timeout(handle, timeoutMilliseconds)
        if let desktopEntry {
            notify_notification_set_hint(handle, "desktop-entry", g_variant_new_string(desktopEntry))
        }
        if let sound {
            notify_notification_set_hint(handle, "sound-name", g_variant_new_string(sound))
        }

        lastID += 1
        let entry = ShownNotification(
            id: lastID, keys: keys, handle: handle, connection: self, summary: summary,
            body: body, hasActions: server.supportsActions && !actions.isEmpty, answered: answered)
        if server.supportsActions {
            for action in actions {
                // Each registration owns one reference to the entry, dropped when libnotify frees it.
                notify_notification_add_action(
                    handle, action.key, action.label,
                    { _, key, userData in
                        guard let key, let userData else { return }
                        let entry = Unmanaged<ShownNotification>.fromOpaque(userData).takeUnretainedValue()
                        entry.connection.actionInvoked(entry, key: String(cString: key))
                    }, Unmanaged.passRetained(entry).toOpaque(),
                    { userData in
                        Unmanaged<ShownNotification>.fromOpaque(userData!).release()
                    })
            }
        }
        // g_signal_connect is a macro; this is its expansion. Signature of "closed": (NotifyNotification*, gpointer).
        let onClosed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, userData in
            guard let userData else { return }
            let entry = Unmanaged<ShownNotification>.fromOpaque(userData).takeUnretainedValue()
            entry.connection.closed(entry)
        }
        let releaseEntry: GClosureNotify = { userData, _ in
            Unmanaged<ShownNotification>.fromOpaque(userData!).release()
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(handle), "closed", unsafeBitCast(onClosed, to: GCallback.self),
            Unmanaged.passRetained(entry).toOpaque(), releaseEntry, GConnectFlags(rawValue: 0))

        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(handle, &error) != 0 else {
            let message = takeMessage(of: &error)
            g_object_unref(UnsafeMutableRawPointer(handle))  // also drops the callbacks' references to the entry
            return .failure(DeliveryError("the notification server did not take the notification: \(message)"))
        }
        shown[entry.id] = entry
        return .success(entry.id)
    }

    /// A button (or the body, for `default`) was clicked.
    fileprivate func actionInvoked(_ entry: ShownNotification, key: String) {
        guard shown[entry.id] != nil, !entry.isAnswered else { return }
        if let answered = entry.answered {
            entry.isAnswered = true
            answered(key)
        } else {
            guard let action = AlarmNotification.Action(key: key) else { return }
            entry.isAnswered = true
            let response =
                switch action {
                case .default: NotificationResponse(keys: entry.keys, kind: .activated)
                case .complete: NotificationResponse(keys: entry.keys, kind: .complete)
                case .snooze(let choice): NotificationResponse(keys: entry.keys, kind: .snooze, snooze: choice)
                }
            responses.yield(response)
        }
        // Servers such as dunst leave a notification on screen after an action: the answered alarm goes.
        close(entry)
    }

    /// Closes the notifications whose every key is in `keys`; their "closed" signal is not an answer.
    func withdraw(_ keys: Set<FiringKey>) {
        for entry in shown.values.sorted(by: { $0.id < $1.id }) where !entry.keys.isEmpty && entry.keys.allSatisfy(keys.contains) {
            entry.isAnswered = true
            close(entry)
        }
    }

    /// The server closed the notification: the user dismissed it, it expired, or we closed it.
    fileprivate func closed(_ entry: ShownNotification) {
        guard shown[entry.id] != nil else { return }
        let byUser = notify_notification_get_closed_reason(entry.handle) == Int32(NOTIFY_CLOSED_REASON_DISMISSED.rawValue)
        // A question closed without a button (dismissed or expired): nothing was decided.
        if let answered = entry.answered, !entry.isAnswered { answered(nil) }
        // A notification without keys (an item's details) answers no alarm.
        if byUser && !entry.isAnswered && !entry.keys.isEmpty {
            responses.yield(NotificationResponse(keys: entry.keys, kind: .dismissed))
        }
        entry.isAnswered = true
        forget(entry)
    }

    private func forget(_ entry: ShownNotification) {
        guard shown.removeValue(forKey: entry.id) != nil else { return }
        releaseLater.append(entry.handle)
        guard !releaseScheduled else { return }
        releaseScheduled = true
        let source = g_idle_source_new()
        g_source_set_callback(
            source,
            { userData in
                Unmanaged<LibnotifyConnection>.fromOpaque(userData!).takeUnretainedValue().releaseForgotten()
                return 0  // G_SOURCE_REMOVE
            }, Unmanaged.passRetained(self).toOpaque(),
            { userData in
                Unmanaged<LibnotifyConnection>.fromOpaque(userData!).release()
            })
        g_source_attach(source, context)
        g_source_unref(source)
    }

    private func releaseForgotten() {
        releaseScheduled = false
        let handles = releaseLater
        releaseLater = []
        for handle in handles { g_object_unref(UnsafeMutableRawPointer(handle)) }
    }

    /// The icon every notification carries (`app_icon`): Chime's, from the icon theme.
    static let iconName = "chime"

    /// What a notification left on screen at shutdown says below its body: its buttons are gone.
    static let stoppedNote = "(Chime stopped; its buttons are gone until systemctl --user start chime)"

    /// Lets go of libnotify without closing anything on screen: alarms must stay visible after the
    /// daemon stops. (`notify_uninit` closes every notification it still tracks that never expires,
    /// so ours are finalised first, which takes them off its list.)
    ///
    /// - Parameter stopping: the daemon is stopping (not reconnecting after a failed delivery): each
    ///   notification with buttons is shown again in place (same id) without them, since nobody
    ///   would hear a click, its body ending in ``stoppedNote``.
    func closeDown(stopping: Bool = false) {
        guard !isClosed else { return }
        isClosed = true
        let entries = shown.values.sorted { $0.id < $1.id }
        shown = [:]  // their "closed" signals, if any still come, are not the user's answers
        for entry in entries {
            // A question nobody will hear the answer to goes; an alarm stays, without its buttons.
            if let answered = entry.answered {
                if !entry.isAnswered { answered(nil) }
                var error: UnsafeMutablePointer<GError>?
                if notify_notification_close(entry.handle, &error) == 0 { _ = takeMessage(of: &error) }
            } else if stopping && entry.hasActions {
                reshowWithoutActions(entry)
            }
            g_object_unref(UnsafeMutableRawPointer(entry.handle))
        }
        releaseForgotten()
        notify_uninit()
    }

    /// Replaces `entry` on screen (the same notification id) with its text plus ``stoppedNote`` and no
    /// actions. Best effort: a server that has gone away keeps whatever it showed.
    private func reshowWithoutActions(_ entry: ShownNotification) {
        notify_notification_clear_actions(entry.handle)
        let note = server.supportsBodyMarkup ? Self.escapedMarkup(Self.stoppedNote) : Self.stoppedNote
        let body = entry.body.isEmpty ? note : entry.body + "\n" + note
        _ = notify_notification_update(entry.handle, entry.summary, body, Self.iconName)
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(entry.handle, &error) == 0 { _ = takeMessage(of: &error) }
    }

    private static func urgency(_ urgency: AlarmNotification.Urgency) -> NotifyUrgency {
        switch urgency {
        case .low: NOTIFY_URGENCY_LOW
        case .normal: NOTIFY_URGENCY_NORMAL
        case .critical: NOTIFY_URGENCY_CRITICAL
        }
    }

    private static func escapedMarkup(_ text: String) -> String {
        takeString(g_markup_escape_text(text, -1)) ?? text
    }
}

/// One notification on screen, as its callbacks see it (their `user_data`).
private final class ShownNotification {
    let id: Int
    let keys: [FiringKey]
    let handle: UnsafeMutablePointer<NotifyNotification>
    let connection: LibnotifyConnection
    /// The summary and body as sent (the body escaped for a markup server), to show them again at shutdown.
    let summary: String
    let body: String
    /// Buttons were registered: at shutdown it is shown again without them.
    let hasActions: Bool
    /// An action was reported or we closed it: a later close is not the user's dismissal.
    var isAnswered = false
    /// For a question: who hears its answer (the button's key, or nil).
    let answered: (@Sendable (String?) -> Void)?

    init(
        id: Int, keys: [FiringKey], handle: UnsafeMutablePointer<NotifyNotification>, connection: LibnotifyConnection,
        summary: String, body: String, hasActions: Bool, answered: (@Sendable (String?) -> Void)?
    ) {
        self.answered = answered
        self.id = id
        self.keys = keys
        self.handle = handle
        self.connection = connection
        self.summary = summary
        self.body = body
        self.hasActions = hasActions
    }
}
