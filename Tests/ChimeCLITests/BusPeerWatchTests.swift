@testable import chime
import ChimeDesktop
import Foundation
import Synchronization
import ChimeTestKit
import Testing

/// ``BusService`` hears a caller's connection close, and only its callers': programs that merely
/// connect to the same bus are no concern of it (and would each wake an idle daemon).
@Suite struct BusPeerWatchTests {
    static let interface = "io.github.chime.PeerWatchTest"
    static let xml = """
        <node><interface name="\(interface)"><method name="Hello"><arg type="s" direction="out"/></method></interface></node>
        """

    /// Answers `Hello` with the caller's unique name.
    struct Greeter: BusMethodHandler {
        func handle(_ method: String, _ arguments: [BusValue], from caller: BusCaller) async throws(BusError) -> [BusValue] {
            [.string(caller.uniqueName)]
        }
    }

    /// A command run on a thread of its own: the service's handler needs Swift's shared pool,
    /// which waiting for gdbus there would hold.
    func shell(_ command: String) async -> (status: Int32, output: String) {
        await withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: ServiceSandbox.shell(command)) }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aCallerLeavingIsHeardAndAStrangerLeavingIsNot() async throws {
        let bus = try PrivateSessionBus()
        let service = try BusService.start(
            busName: "io.github.chime.PeerWatchTest", objectPath: "/io/github/chime/PeerWatchTest",
            interfaceXML: Self.xml, interfaceName: Self.interface, handler: Greeter(),
            address: bus.address)
        defer { service.stop() }
        let gdbus = "gdbus call --address '\(bus.address)' "
        // Strangers come and go first: were they heard, the first event would name one of them.
        for _ in 0..<3 {
            #expect(
                await shell(
                    gdbus + "--dest org.freedesktop.DBus --object-path /org/freedesktop/DBus "
                        + "--method org.freedesktop.DBus.ListNames"
                ).status == 0)
        }
        let hello = await shell(
            gdbus + "--dest io.github.chime.PeerWatchTest --object-path /io/github/chime/PeerWatchTest "
                + "--method \(Self.interface).Hello")
        #expect(hello.status == 0, "\(hello.output)")
        let caller = hello.output.split(separator: "'").dropFirst().first.map(String.init)
        #expect(caller?.hasPrefix(":") == true, "\(hello.output)")
        let event = await service.events.first(within: 10)
        #expect(event == caller.map { .peerVanished(uniqueName: $0) }, "first event: \(String(describing: event))")
        // The caller's watch went with it: a new caller is identified afresh and heard leaving too.
        let again = await shell(
            gdbus + "--dest io.github.chime.PeerWatchTest --object-path /io/github/chime/PeerWatchTest "
                + "--method \(Self.interface).Hello")
        let second = again.output.split(separator: "'").dropFirst().first.map(String.init)
        #expect(second != nil && second != caller, "\(again.output)")
        let next = await service.events.first(within: 10)
        #expect(next == second.map { .peerVanished(uniqueName: $0) }, "second event: \(String(describing: next))")
    }
}
