import Foundation
import Glibc

/// A session bus of the test's own (no service directories unless given), so that what runs on
/// it — a gnome-keyring, or nothing — is seen by this test alone. Stopped on deinit.
public final class PrivateSessionBus: @unchecked Sendable {
    public let folder: String
    public let address: String
    private let daemon = Process()

    /// `activatable`: D-Bus service files (name → Exec line) the bus may start on demand.
    public init(activatable: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bus-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/services", withIntermediateDirectories: true)
        for (name, exec) in activatable {
            try "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n".write(toFile: folder + "/services/\(name).service", atomically: true, encoding: .utf8)
        }
        let serviceDir = activatable.isEmpty ? "" : "<servicedir>\(folder)/services</servicedir>"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:path=\(folder)/bus</listen><auth>EXTERNAL</auth>\(serviceDir)
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
        </busconfig>
        """.write(toFile: folder + "/bus.conf", atomically: true, encoding: .utf8)
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--nofork", "--config-file=\(folder)/bus.conf"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        address = "unix:path=\(folder)/bus"
        guard ServiceSandbox.poll(20, { FileManager.default.fileExists(atPath: folder + "/bus") }) else {
            throw CLIFailure("dbus-daemon did not open \(folder)/bus")
        }
    }

    /// What a process needs to use this bus and nothing of the machine's keyrings.
    public var environment: [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": address, "HOME": folder, "XDG_DATA_HOME": folder + "/data",
            "XDG_RUNTIME_DIR": folder, "XDG_CONFIG_HOME": folder + "/config"
        ]
    }

    /// Whether `name` has an owner on this bus.
    public func hasOwner(_ name: String) -> Bool {
        ServiceSandbox.shell(
            "gdbus call --address '\(address)' --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus "
                + "--method org.freedesktop.DBus.NameHasOwner \(name)"
        ).output.contains("true")
    }

    // SIGKILL: this dbus-daemon outlived a SIGTERM in a test run.
    deinit {
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL); daemon.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
