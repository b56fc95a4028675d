import ChimeCore
import ChimeDesktop
import ChimeScheduler
import Testing

/// The `sound-name` hint goes only with alarms that asked for a sound (`ACTION:AUDIO`), and only to
/// servers that say they play sounds; the others' alarms go to Chime's own player (libcanberra).
/// (dunst 1.9 has no `sound`, so the hint branch is decided here, not observed there.)
@Suite struct NotificationServerInfoTests {
    static func note(sound: Bool) -> AlarmNotification {
        AlarmNotification(
            keys: [], fireAt: Instant(secondsSince1970: 0), summary: "Kids", body: "", urgency: .normal,
            category: "x-chime.event", actions: [.default], kind: "event", asksForSound: sound)
    }

    @Test func theSoundHintNeedsBothTheAlarmAndTheServer() {
        let plays = NotificationServerInfo(
            name: "gnome-shell", vendor: "GNOME", version: "46", specVersion: "1.2",
            capabilities: ["actions", "body", "sound"])
        let silent = NotificationServerInfo(
            name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
            capabilities: ["actions", "body", "body-hyperlinks", "persistence"])
        #expect(plays.soundName(for: Self.note(sound: true)) == "alarm-clock-elapsed")
        #expect(plays.soundName(for: Self.note(sound: false)) == nil)
        #expect(silent.soundName(for: Self.note(sound: true)) == nil)
    }

    @Test func aServerWithoutSoundLeavesTheSoundToThePlayer() {
        let plays = NotificationServerInfo(
            name: "gnome-shell", vendor: "GNOME", version: "46", specVersion: "1.2",
            capabilities: ["actions", "body", "sound"])
        let silent = NotificationServerInfo(
            name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
            capabilities: ["actions", "body"])
        var bell = Self.note(sound: false)
        bell.soundName = "bell"
        #expect(plays.soundRoute(for: bell) == .hint("bell"))
        #expect(silent.soundRoute(for: bell) == .player("bell"))
        #expect(silent.soundRoute(for: Self.note(sound: true)) == .player("alarm-clock-elapsed"))
        #expect(plays.soundRoute(for: Self.note(sound: false)) == nil)
        #expect(silent.soundRoute(for: Self.note(sound: false)) == nil)
    }
}
