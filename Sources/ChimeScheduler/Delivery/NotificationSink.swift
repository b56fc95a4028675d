import ChimeCore

/// What the scheduler asks a desktop (or a terminal) to show.
///
/// ```swift
/// let note = AlarmNotification(keys: [firing.key], fireAt: firing.fireAt, summary: "Dentist",
///                              body: "14:00–15:00", urgency: .normal, category: "x-chime.event",
///                              actions: [.default, .snooze(.minutes(10))])
/// try sink.deliver(note, deliveredAtMilliseconds: clock.now().milliseconds)
/// ```
public struct AlarmNotification: Hashable, Sendable {
    public enum Urgency: String, Hashable, Sendable { case low, normal, critical }

    /// Buttons; `.default` is what clicking the notification body does: open ``openURL`` when
    /// there is one (labelled "Open"), else show the item in full in a notification of its own
    /// (labelled "Show"; see ``NotificationText/details(of:item:calendarTitle:zone:)``); either way
    /// the alarm is acknowledged. Most servers show the default action's label nowhere but a menu.
    public enum Action: Hashable, Sendable {
        case `default`, complete
        /// One button per configured ``SnoozeChoice``.
        case snooze(SnoozeChoice)

        /// The notification action key: `default`, `complete`, `snooze:10m`, `snooze:tomorrow 9:00`.
        public var key: String {
            switch self {
            case .default: "default"
            case .complete: "complete"
            case .snooze(let choice): choice.actionKey
            }
        }

        /// The action a key names; nil for a key Chime never registers. A bare `snooze` (older
        /// notifications) is nil too: the server only reports keys the notification registered.
        public init?(key: String) {
            switch key {
            case "default": self = .default
            case "complete": self = .complete
            default:
                guard key.hasPrefix(SnoozeChoice.keyPrefix),
                    let choice = try? SnoozeChoice(parsing: String(key.dropFirst(SnoozeChoice.keyPrefix.count)))
                else { return nil }
                self = .snooze(choice)
            }
        }
    }

    /// The firings this notification stands for: one, or several for "You missed N alarms".
    public var keys: [FiringKey]
    /// The same firings as references `chime show` takes (`ID` or `ID@occurrence`, see
    /// ``ReferenceText``), in the order of ``keys``; empty when the sender made none.
    public var references: [String]
    /// When it was due (the earliest, for a summary).
    public var fireAt: Instant
    public var summary: String
    public var body: String
    public var urgency: Urgency
    /// freedesktop notification category: `x-chime.event`, `x-chime.reminder`, `x-chime.missed`.
    public var category: String
    public var actions: [Action]
    /// `event`, `reminder`, `missed`, or ``detailsKind`` (the stdout sink's `kind`).
    public var kind: String
    /// The item's URL, when it passed ``OpenableURL/check(_:)``: activating the notification opens it.
    public var openURL: String?
    /// The freedesktop sound-theme name to play with it (``AlarmSounds``), nil for none: sinks that
    /// can play one do.
    public var soundName: String?
    /// Whether it plays a sound.
    public var asksForSound: Bool { soundName != nil }
    /// The buttons' labels in the user's language, by action key (``Action/key``); an action
    /// without one is labelled in English (``label(for:)``).
    public var actionLabels: [String: String] = [:]

    /// `asksForSound` without a `soundName` means ``AlarmSounds/defaultName``.
    public init(
        keys: [FiringKey], fireAt: Instant, summary: String, body: String, urgency: Urgency,
        category: String, actions: [Action], kind: String, openURL: String? = nil, asksForSound: Bool = false,
        soundName: String? = nil, references: [String] = []
    ) {
        self.keys = keys
        self.references = references
        self.fireAt = fireAt
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.category = category
        self.actions = actions
        self.kind = kind
        self.openURL = openURL
        self.soundName = soundName ?? (asksForSound ? AlarmSounds.defaultName : nil)
    }

    /// The ``kind`` of the notification that shows an item in full when its alarm's notification is
    /// activated without a URL to open: no keys, no buttons, nothing to announce or answer.
    public static let detailsKind = "details"

    public func label(for action: Action) -> String {
        if let translated = actionLabels[action.key] { return translated }
        return Self.label(for: action, kind: kind, openURL: openURL, messages: .english)
    }

    /// The label of a button: "Show" (or "Open", "Dismiss" for the missed-alarms summary),
    /// "Complete", "Snooze 10 min".
    static func label(for action: Action, kind: String, openURL: String?, messages: Messages) -> String {
        switch action {
        case .default:
            return openURL == nil
                ? (kind == "missed" ? messages("Dismiss", context: "button") : messages("Show", context: "button"))
                : messages("Open", context: "button")
        case .complete: return messages("Complete", context: "button")
        case .snooze(let choice): return choice.label(messages)
        }
    }

    /// Labels every action in the user's language.
    mutating func labelActions(_ messages: Messages) {
        guard messages.language != nil else { return }
        for action in actions { actionLabels[action.key] = Self.label(for: action, kind: kind, openURL: openURL, messages: messages) }
    }

}

/// What the user did with a notification.
public struct NotificationResponse: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// The body or the default action was clicked: the item's URL is opened, if it has one
        /// that may be opened, and the alarm is acknowledged.
        case activated
        case complete
        case snooze
        /// Closed by the user (not by an action, not by the sink itself).
        case dismissed
    }

    public var keys: [FiringKey]
    public var kind: Kind
    /// For `.snooze`: the button chosen; nil means the first configured choice.
    public var snooze: SnoozeChoice?

    public init(keys: [FiringKey], kind: Kind, snooze: SnoozeChoice? = nil) {
        self.keys = keys
        self.kind = kind
        self.snooze = snooze
    }
}

/// Why a notification could not be shown.
public struct DeliveryError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Where notifications go: a desktop notification server (``LibnotifySink`` in ChimeDesktop),
/// standard output (``StdoutSink``), or a recording double in tests.
///
/// `deliver` is called from the scheduler's task, one notification at a time; it returns once
/// the notification was handed over. User actions come back through ``responses``.
public protocol NotificationSink: AnyObject, Sendable {
    /// A short name for logs ("libnotify", "stdout").
    var name: String { get }
    func deliver(_ notification: AlarmNotification, deliveredAtMilliseconds: Int64) throws(DeliveryError)
    /// Actions and closes, in the order the user made them. Ends after ``shutdown()``.
    var responses: AsyncStream<NotificationResponse> { get }
    /// Closes the connection to the server and finishes ``responses``.
    func shutdown()
    /// Takes off the screen every notification all of whose keys are given: their alarms are
    /// over (the item was completed, removed, cancelled or moved). Best effort. No default: a
    /// sink that wraps another passes it on, or the alarm stays on screen.
    func withdraw(_ keys: Set<FiringKey>)
    /// Puts a question on screen (an app asking for access): a notification with buttons that
    /// expires. `answered` is called once, on the sink's thread: with the key of the button
    /// clicked, or nil when it closed without one (dismissed, expired, withdrawn, the sink shut
    /// down). Returns the question's id for ``withdrawQuestion(_:)``. No default: a sink that
    /// wraps another passes it on, and one with nobody to ask (standard output) says so.
    func ask(_ question: UserQuestion, answered: @escaping @Sendable (String?) -> Void) throws(DeliveryError) -> Int
    /// Takes a question off the screen; its `answered` is called with nil.
    func withdrawQuestion(_ id: Int)
}

/// A question for the user on a notification: the summary, the body, one button per choice, and
/// how long it stays before it closes unanswered.
///
/// ```swift
/// let id = try sink.ask(UserQuestion(summary: "Allow Planner to use your reminders?", body: "…",
///                                    buttons: [.init(key: "allow", label: "Allow"), .init(key: "deny", label: "Don't Allow")],
///                                    expirySeconds: 240)) { key in print(key ?? "no answer") }
/// ```
public struct UserQuestion: Hashable, Sendable {
    public struct Button: Hashable, Sendable {
        public var key: String
        public var label: String
        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }
    public var summary: String
    public var body: String
    public var buttons: [Button]
    public var expirySeconds: Int32

    public init(summary: String, body: String, buttons: [Button], expirySeconds: Int32) {
        self.summary = summary
        self.body = body
        self.buttons = buttons
        self.expirySeconds = expirySeconds
    }
}
