import CLibnotify
import ChimeCore
import ChimeScheduler
import Synchronization

/// Shows alarms on the Linux desktop through libnotify (the freedesktop notification server on the
/// session bus: GNOME Shell, KDE Plasma, dunst, mako…) and reports what the user clicks.
///
/// Notifications never expire by themselves, carry the `desktop-entry` hint and, when the server
/// shows buttons, one button per ``AlarmNotification/actions`` element. libnotify runs on a thread
/// of its own with a GLib main loop; ``deliver(_:deliveredAtMilliseconds:)`` waits for the server
/// to accept the notification.
///
/// libnotify keeps process-wide state, so a process has at most one open sink at a time.
///
/// ```swift
/// let sink: NotificationSink
/// do { sink = try LibnotifySink.connect() } catch { sink = StdoutSink() }  // no desktop: stdout
/// try sink.deliver(note, deliveredAtMilliseconds: now)
/// for await response in sink.responses { scheduler.handle(response) }
/// ```
public final class LibnotifySink: NotificationSink {
    public let name = "libnotify"
    public let responses: AsyncStream<NotificationResponse>
    /// The server that answered at ``connect(appName:desktopEntry:serverTimeout:)``.
    public let server: NotificationServerInfo
    private let continuation: AsyncStream<NotificationResponse>.Continuation
    private let loopThread: GLibMainLoopThread
    private let connection: LoopConfined<ConnectionSlot>
    private let appName: String
    private let desktopEntry: String?
    private let serverTimeoutMilliseconds: Int32
    private let isShutDown = Mutex(false)
    /// Plays alarm sounds the server cannot (nil: such alarms are silent).
    private let soundPlayer: (any SoundPlayer)?

    /// Whether the server shows buttons (capability `actions`); without, notifications have none.
    public var supportsActions: Bool { server.supportsActions }
    /// The server's name, e.g. "dunst" or "gnome-shell".
    public var serverName: String { server.name }
    /// The server's version, e.g. "1.9.0".
    public var serverVersion: String { server.version }

    /// Set while a sink is open: libnotify's state (app name, D-Bus proxy) is process-wide.
    private static let processSlot = Mutex(false)

    private init(
        server: NotificationServerInfo, loopThread: GLibMainLoopThread,
        connection: LoopConfined<ConnectionSlot>, appName: String, desktopEntry: String?,
        serverTimeoutMilliseconds: Int32, soundPlayer: (any SoundPlayer)?,
        responses: AsyncStream<NotificationResponse>,
        continuation: AsyncStream<NotificationResponse>.Continuation
    ) {
        self.server = server
        self.loopThread = loopThread
        self.connection = connection
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.serverTimeoutMilliseconds = serverTimeoutMilliseconds
        self.soundPlayer = soundPlayer
        self.responses = responses
        self.continuation = continuation
    }

    /// Initialises libnotify on its own thread and checks that a notification server answers.
    ///
    /// ```swift
    /// let sink = try LibnotifySink.connect(appName: "Chime", desktopEntry: "chime")
    /// defer { sink.shutdown() }
    /// print("notifications via \(sink.serverName) \(sink.serverVersion), buttons: \(sink.supportsActions)")
    /// ```
    /// - Parameters:
    ///   - appName: the application name the server shows and logs.
    ///   - desktopEntry: the `.desktop` file name without its extension (the `desktop-entry` hint), or nil.
    ///   - serverTimeout: how long to wait for the server's answer.
    ///   - soundPlayer: plays an alarm's sound when the server has no `sound` capability; nil: silent there.
    /// - Throws: ``DeliveryError`` "no notification server answers on the session bus: …" when there is
    ///   no session bus or nothing owns `org.freedesktop.Notifications`, so the caller can fall back
    ///   to standard output; also when another sink of this process is still open.
    public static func connect(
        appName: String = "Chime", desktopEntry: String? = "chime",
        serverTimeout: Duration = .seconds(5),
        soundPlayer: (any SoundPlayer)? = nil
    ) throws(DeliveryError) -> LibnotifySink {
        let claimed = processSlot.withLock { open in
            defer { open = true }
            return !open
        }
        guard claimed else {
            throw DeliveryError("another LibnotifySink is open in this process; shut it down first")
        }
        let (responses, continuation) = AsyncStream.makeStream(of: NotificationResponse.self)
        let loopThread = GLibMainLoopThread(name: "chime-libnotify")
        let timeout = Int32(
            clamping: serverTimeout.components.seconds * 1000
                + serverTimeout.components.attoseconds / 1_000_000_000_000_000)
        let opened = loopThread.perform {
            LibnotifyConnection.open(
                appName: appName, desktopEntry: desktopEntry, context: loopThread.mainContext,
                responses: continuation, serverTimeoutMilliseconds: timeout
            )
            .map { LoopConfined(ConnectionSlot($0)) }
        }
        switch opened {
        case .success(let connection):
            return LibnotifySink(
                server: connection.value.current.server, loopThread: loopThread, connection: connection,
                appName: appName, desktopEntry: desktopEntry, serverTimeoutMilliseconds: timeout,
                soundPlayer: soundPlayer, responses: responses, continuation: continuation)
        case .failure(let error):
            loopThread.stop()
            continuation.finish()
            processSlot.withLock { $0 = false }
            throw error
        case nil:
            preconditionFailure("a fresh GLibMainLoopThread refused work")
        }
    }

    /// Shows `n` and returns once the server has accepted it.
    ///
    /// ```swift
    /// try sink.deliver(AlarmNotification(keys: [key], fireAt: fireAt, summary: "Dentist", body: "14:00–15:00",
    ///                                    urgency: .normal, category: "x-chime.event",
    ///                                    actions: [.default, .snooze(.minutes(10))], kind: "event"),
    ///                  deliveredAtMilliseconds: now)
    /// ```
    /// `deliveredAtMilliseconds` is not used: the server shows its own time of arrival.
    ///
    /// When the server does not take it (the bus connection was closed, the server restarted),
    /// the sink lets go of libnotify, opens it again and tries once more, so one bad moment does
    /// not break every later alarm.
    /// - Throws: ``DeliveryError`` with the D-Bus error when the server does not take it, or after ``shutdown()``.
    public func deliver(_ n: AlarmNotification, deliveredAtMilliseconds: Int64) throws(DeliveryError) {
        _ = try onConnection { $0.show(n) }
        // After the server took it, so a refused notification does not ring for nothing.
        if case .player(let name) = server.soundRoute(for: n) { soundPlayer?.play(name) }
    }

    /// Shows a question with its buttons, expiring after `question.expirySeconds`; `answered` hears
    /// the button clicked, or nil when it closed without one. Reconnects once as ``deliver(_:deliveredAtMilliseconds:)`` does.
    ///
    /// ```swift
    /// let id = try sink.ask(question) { key in decide(key) }
    /// ```
    /// - Throws: ``DeliveryError`` when the server does not take it or shows no buttons.
    public func ask(_ question: UserQuestion, answered: @escaping @Sendable (String?) -> Void) throws(DeliveryError) -> Int {
        // Not a broken connection: no reconnect (which would lose track of the alarms on screen).
        guard server.supportsActions else { throw DeliveryError("the notification server (\(server.name)) shows no buttons to answer with") }
        return try onConnection { $0.ask(question, answered: answered) }
    }

    /// Takes a question off the screen; its `answered` hears nil.
    public func withdrawQuestion(_ id: Int) {
        let connection = self.connection
        _ = loopThread.perform { connection.value.current.withdrawQuestion(id) }
    }

    /// Runs `body` on the loop thread with the current connection; when the server does not take
    /// it (the bus connection was closed, the server restarted), lets go of libnotify, opens it
    /// again and runs `body` once more.
    private func onConnection<T>(_ body: @escaping (LibnotifyConnection) -> Result<T, DeliveryError>) throws(DeliveryError) -> T {
        let slot = self.connection
        let (appName, desktopEntry, timeout, responses) = (self.appName, self.desktopEntry, serverTimeoutMilliseconds, continuation)
        let context = loopThread.mainContext
        guard
            let outcome = loopThread.perform({ () -> Result<T, DeliveryError> in
                let first = body(slot.value.current)
                guard case .failure(let error) = first, !slot.value.isShutDown else { return first }
                slot.value.current.closeDown()
                switch LibnotifyConnection.open(
                    appName: appName, desktopEntry: desktopEntry, context: context,
                    responses: responses, serverTimeoutMilliseconds: timeout)
                {
                case .success(let fresh):
                    slot.value.current = fresh
                    return body(fresh).mapError { DeliveryError("\($0) (after reconnecting; first attempt: \(error))") }
                case .failure(let reopenError):
                    // Keep a closed connection in the slot: the next delivery tries to reopen again.
                    return .failure(DeliveryError("\(error); reconnecting failed: \(reopenError)"))
                }
            })
        else {
            throw DeliveryError("the libnotify sink is shut down")
        }
        return try outcome.get()
    }

    /// Closes every notification on screen all of whose keys are in `keys` (their alarms are
    /// over). A close that the server refuses leaves it shown; nothing is reported as the user's answer.
    ///
    /// ```swift
    /// sink.withdraw([key])
    /// ```
    public func withdraw(_ keys: Set<FiringKey>) {
        guard !keys.isEmpty else { return }
        let connection = self.connection
        _ = loopThread.perform { connection.value.current.withdraw(keys) }
    }

    /// Lets go of the server and finishes ``responses``. Notifications on screen stay there: an alarm
    /// must remain visible after the daemon stops. Their buttons would answer nobody, so each is
    /// shown again in place without them, its body ending in "(Chime stopped; its buttons are gone
    /// until systemctl --user start chime)". Idempotent.
    ///
    /// ```swift
    /// sink.shutdown()
    /// ```
    public func shutdown() {
        let first = isShutDown.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let connection = self.connection
        _ = loopThread.perform {
            connection.value.isShutDown = true
            connection.value.current.closeDown(stopping: true)
        }
        loopThread.stop()
        continuation.finish()
        Self.processSlot.withLock { $0 = false }
    }

    deinit { shutdown() }
}

/// The libnotify connection in use; replaced when a delivery fails and libnotify is reopened.
private final class ConnectionSlot {
    var current: LibnotifyConnection
    var isShutDown = false
    init(_ connection: LibnotifyConnection) { current = connection }
}
