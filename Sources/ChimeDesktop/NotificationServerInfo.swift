import ChimeScheduler

/// What the desktop's notification server says about itself (`GetServerInformation`, `GetCapabilities`).
///
/// ```swift
/// let sink = try LibnotifySink.connect()
/// print(sink.server.name, sink.server.version)   // "dunst 1.9.0"
/// if !sink.server.supportsActions { /* no buttons: the notification is only shown */ }
/// ```
public struct NotificationServerInfo: Hashable, Sendable {
    public var name: String
    public var vendor: String
    public var version: String
    /// The version of the Desktop Notifications Specification the server follows ("1.2").
    public var specVersion: String
    /// Capability strings such as `actions`, `body`, `body-markup`, `persistence`.
    public var capabilities: [String]

    public init(name: String, vendor: String, version: String, specVersion: String, capabilities: [String]) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }

    /// Whether the server shows buttons and reports clicks on them.
    public var supportsActions: Bool { capabilities.contains("actions") }
    /// Whether the server reads the body as markup, so that plain text must be escaped: it says
    /// `body-markup`, or `body-hyperlinks` (dunst 1.9 advertises only the latter, yet renders
    /// `<b>` and turns `<a href="file:///…">` into a link to open).
    /// Whether the server plays sounds (capability `sound`), so a `sound-name` hint means something.
    public var supportsSound: Bool { capabilities.contains("sound") }

    /// How an alarm's sound is played: by the server (the `sound-name` hint) or by Chime itself.
    public enum SoundRoute: Hashable, Sendable {
        /// The server has the `sound` capability: it plays the theme sound named in the hint.
        case hint(String)
        /// The server plays no sounds (dunst, mako …): Chime plays it through libcanberra.
        case player(String)
    }

    /// Where `n`'s sound (``AlarmNotification/soundName``) is played; nil for a silent alarm.
    public func soundRoute(for n: AlarmNotification) -> SoundRoute? {
        guard let name = n.soundName else { return nil }
        return supportsSound ? .hint(name) : .player(name)
    }

    /// The `sound-name` hint to send with `n`: its sound when the server plays sounds, else nil.
    /// (A VALARM's own ATTACH sound file is not played: it is a URL from the file.)
    public func soundName(for n: AlarmNotification) -> String? {
        if case .hint(let name) = soundRoute(for: n) { return name }
        return nil
    }

    public var supportsBodyMarkup: Bool { capabilities.contains("body-markup") || capabilities.contains("body-hyperlinks") }
}
