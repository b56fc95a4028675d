@testable import ChimeDesktop
import ChimeScheduler
import Foundation
import Synchronization
import Testing

/// libcanberra for real, where the tests run: usually no sound server and no sound card. Playing
/// must then fail with libcanberra's reason, quickly, and never block the caller or crash; on a
/// machine with sound it starts playing. Either outcome passes; a hang or a crash does not.
@Suite struct CanberraPlayerTests {
    @Test func playingHeadlessEndsCleanlyWithLibcanberrasOwnAnswer() {
        let player = CanberraPlayer()
        let started = ContinuousClock.now
        let result = player.playNow("alarm-clock-elapsed")
        #expect(ContinuousClock.now - started < .seconds(10))
        switch result {
        case .success: break
        case .failure(let error): #expect(!error.message.isEmpty)
        }
        // A second sound after a failure tries again, and answers the same way.
        if case .failure(let error) = player.playNow("bell") { #expect(!error.message.isEmpty) }
    }

    @Test func playReturnsAtOnceAndReportsLater() async {
        let outcomes = Mutex<[(String, Bool)]>([])
        let player = CanberraPlayer { name, result in
            outcomes.withLock { $0.append((name, (try? result.get()) != nil)) }
        }
        let started = ContinuousClock.now
        player.play("alarm-clock-elapsed")
        player.play("complete")
        #expect(ContinuousClock.now - started < .milliseconds(100))
        let deadline = ContinuousClock.now + .seconds(20)
        while outcomes.withLock({ $0.count }) < 2 && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        #expect(outcomes.withLock { $0.map(\.0) } == ["alarm-clock-elapsed", "complete"])
    }

    /// libcanberra is loaded on the first sound, not linked: without it the sound fails with a line
    /// that says what to install, and nothing else changes.
    @Test func aMissingLibcanberraIsReportedWithWhatToInstall() {
        guard case .failure(let error) = Canberra.load("libcanberra-not-installed.so.0") else {
            Issue.record("a library that does not exist was loaded")
            return
        }
        #expect(error.message.hasPrefix("libcanberra-not-installed.so.0 cannot be loaded ("), "\(error)")
        #expect(error.message.hasSuffix("install libcanberra0 for alarm sounds"), "\(error)")
        // The real one is there where the tests run (make test installs libcanberra0).
        if case .failure(let error) = Canberra.load() { Issue.record("\(error)") }
    }

    @Test func onlySoundThemeNamesArePlayed() {
        for name in ["/etc/passwd", "../alarm", "file:///x.ogg", "-h", "", "Bell"] {
            guard case .failure(let error) = CanberraPlayer().playNow(name) else { Issue.record("\(name) was played"); continue }
            #expect(error.message.contains("is not a sound-theme name"))
        }
    }
}
