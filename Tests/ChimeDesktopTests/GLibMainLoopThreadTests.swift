import Testing
@testable import ChimeDesktop

/// The loop thread GDBus and libnotify objects live on: work runs there, and stopping works from
/// any thread, the loop thread included (an owner whose last reference goes away in work running
/// there stops it from that thread, which cannot join itself).
@Suite struct GLibMainLoopThreadTests {
    @Test func workRunsOnTheLoopThreadAndNothingAfterStop() {
        let loop = GLibMainLoopThread(name: "chime-test-loop")
        #expect(loop.perform { loop.isCurrent } == true)
        #expect(!loop.isCurrent)
        loop.stop()
        #expect(loop.perform { 1 } == nil)
        loop.stop()  // idempotent
    }

    @Test func stoppingFromTheLoopThreadItselfEndsTheLoop() {
        let loop = GLibMainLoopThread(name: "chime-test-loop")
        let answered = loop.perform { () -> Bool in
            loop.stop()  // would have stopped the process: a thread cannot join itself
            return loop.isCurrent
        }
        #expect(answered == true)
        #expect(loop.perform { 1 } == nil)
    }
}
