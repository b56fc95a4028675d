import ChimeCore
import ChimeScheduler
import ChimeStore
import Testing

/// Which sound a notification asks for: the alarm's own `X-CHIME-SOUND` name (what
/// `chime add --sound NAME` writes), the configured name for other `ACTION:AUDIO` alarms, every
/// alarm with `sound_always`, and never a name that is not a sound-theme name.
@Suite struct AlarmSoundTests {
    static func alarm(_ lines: [String]) -> Alarm {
        var a = Alarm.relative(0)
        a.icsExtras = lines
        return a
    }

    @Test func theDecision() {
        let sounds = AlarmSounds(name: "bell", always: false)
        #expect(sounds.sound(for: Self.alarm([])) == nil)
        #expect(sounds.sound(for: Self.alarm(["ACTION:DISPLAY"])) == nil)
        #expect(sounds.sound(for: Self.alarm(["ACTION:AUDIO"])) == "bell")
        #expect(sounds.sound(for: Self.alarm(AlarmSounds.lines(asking: "complete"))) == "complete")
        // A name that is no theme name (a path, from a file) falls back to the configured one.
        #expect(sounds.sound(for: Self.alarm(["ACTION:AUDIO", "X-CHIME-SOUND:/etc/passwd"])) == "bell")
        #expect(sounds.sound(for: Self.alarm(["X-CHIME-SOUND:complete"])) == nil)  // not an AUDIO alarm
        let always = AlarmSounds(name: "bell", always: true)
        #expect(always.sound(for: Self.alarm([])) == "bell")
        #expect(always.sound(for: Self.alarm(AlarmSounds.lines(asking: "complete"))) == "complete")
        #expect(AlarmSounds().sound(for: Self.alarm(["ACTION:AUDIO"])) == "alarm-clock-elapsed")
        for bad in ["", "-h", "../x", "a/b", "Bell", "file:x", String(repeating: "a", count: 101)] {
            #expect(!AlarmSounds.isValidName(bad), "\(bad)")
        }
        #expect(AlarmSounds.isValidName("dialog-warning"))
    }

    @Test func theNotificationCarriesTheSound() throws {
        let h = try SchedulerHarness()
        h.settings.sounds = AlarmSounds(name: "bell", always: false)
        try h.addEvent("Loud", start: at(2026, 11, 20, 13), alarms: [Self.alarm(AlarmSounds.lines(asking: "complete"))])
        try h.addEvent("Quiet", start: at(2026, 11, 20, 14), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 14))
        #expect(h.sink.delivered.map(\.soundName) == ["complete", nil])
    }

    @Test func soundAlwaysGivesEveryAlarmTheConfiguredSound() throws {
        let h = try SchedulerHarness()
        h.settings.sounds = AlarmSounds(name: "bell", always: true)
        try h.addEvent("Quiet", start: at(2026, 11, 20, 14), alarms: [.relative(0)])
        try h.start()
        try h.advance(to: utc(2026, 11, 20, 14))
        #expect(h.sink.delivered.map(\.soundName) == ["bell"])
    }
}
