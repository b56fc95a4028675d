import ChimeCore

/// Which sound an alarm plays: a name from the freedesktop sound theme (`alarm-clock-elapsed`,
/// `bell`, `complete` …), which the notification server plays (the `sound-name` hint) or, when it
/// plays none, the desktop sink plays itself through libcanberra.
///
/// An alarm asks for a sound when it is an iCalendar `ACTION:AUDIO` alarm (imported, or made by
/// `chime add … --sound NAME`, which also records the name as `X-CHIME-SOUND`), or for every alarm
/// when ``always`` is set. Sound names are checked (``isValidName(_:)``): they come from files too,
/// and only theme names are looked up, never paths or URLs (a VALARM's own `ATTACH` is not played).
///
/// ```swift
/// var sounds = AlarmSounds()
/// sounds.always = true
/// sounds.sound(for: .relative(-600))   // "alarm-clock-elapsed"
/// ```
public struct AlarmSounds: Hashable, Sendable {
    /// The theme name for alarms that ask for a sound without naming one (`[notifications] sound`).
    public var name: String
    /// Every alarm plays ``name`` (`[notifications] sound_always`), not only those that ask.
    public var always: Bool

    public static let defaultName = "alarm-clock-elapsed"
    /// The alarm property `chime add --sound NAME` writes: the theme name to play.
    public static let property = "X-CHIME-SOUND"

    public init(name: String = AlarmSounds.defaultName, always: Bool = false) {
        self.name = name
        self.always = always
    }

    /// The theme name `alarm` plays, or nil for a silent alarm.
    public func sound(for alarm: Alarm) -> String? {
        if alarm.asksForSound { return Self.namedSound(in: alarm) ?? name }
        return always ? name : nil
    }

    /// The valid `X-CHIME-SOUND` name among the alarm's kept lines, if any.
    public static func namedSound(in alarm: Alarm) -> String? {
        for line in alarm.icsExtras {
            let upper = line.uppercased()
            guard upper.hasPrefix(property + ":") || upper.hasPrefix(property + ";"),
                let colon = line.firstIndex(of: ":")
            else { continue }
            let value = String(line[line.index(after: colon)...])
            if isValidName(value) { return value }
        }
        return nil
    }

    /// The lines `chime add --sound NAME` gives each of an item's alarms.
    public static func lines(asking name: String) -> [String] { ["ACTION:AUDIO", "\(property):\(name)"] }

    /// A sound-naming-spec name: lower-case words joined by `-` (`alarm-clock-elapsed`), at most 100
    /// characters; nothing that could be a path, a URL or an option.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100 && name.first != "-"
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "." }
            && !name.contains("..")
    }
}
