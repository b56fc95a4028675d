import ChimeCore
import ChimeDesktop
import ChimeScheduler
import Testing

/// The `sound-name` hint goes only with alarms that asked for a sound (`ACTION:AUDIO`), and only to
/// servers that say they play sounds (dunst 1.9 does not, so this is decided here, not observed there).
@Suite struct NotificationServerInfoTests {
    static func note(sound: Bool) -> AlarmNotification {
        AlarmNotification(keys: [], fireAt: Instant(secondsSince1970: 0), summary: "Kids", body: "", urgency: .normal,
                          category: "x-chime.event", actions: [.default], kind: "event", asksForSound: sound)
    }

    @Test func theSoundHintNeedsBothTheAlarmAndTheServer() {
        let plays = NotificationServerInfo(name: "gnome-shell", vendor: "GNOME", version: "46", specVersion: "1.2",
                                           capabilities: ["actions", "body", "sound"])
        let silent = NotificationServerInfo(name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
                                            capabilities: ["actions", "body", "body-hyperlinks", "persistence"])
        #expect(plays.soundName(for: Self.note(sound: true)) == "alarm-clock-elapsed")
        #expect(plays.soundName(for: Self.note(sound: false)) == nil)
        #expect(silent.soundName(for: Self.note(sound: true)) == nil)
    }
}
