import ChimeCore
import Foundation

extension Doctor {
    /// The files `make install` puts beside the binary that doctor's fixes name, found from where
    /// the running `chime` is: `PREFIX/bin/chime` → `PREFIX/share/doc/chime/geoclue-chime.conf`,
    /// `PREFIX/share/systemd/user/chime.service` (PREFIX `~/.local`) or `PREFIX/lib/systemd/user/…`.
    /// A binary run from a build folder has none of them: the fixes then name the source tree.
    ///
    /// ```swift
    /// Doctor.Installed(executable: "/home/me/.local/bin/chime").geoClueSnippet
    /// // "/home/me/.local/share/doc/chime/geoclue-chime.conf" (when that file exists)
    /// ```
    public struct Installed: Hashable, Sendable {
        /// The folder above the binary's folder; nil when the binary's path is unknown.
        public var prefix: String?

        public init(executable: String?) {
            prefix = executable.map { (($0 as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent }
        }

        /// The running binary, symbolic links resolved (`/proc/self/exe`).
        public static func running() -> Installed {
            Installed(executable: try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        }

        /// `PREFIX/relative` when that file exists.
        func file(_ relative: String) -> String? {
            prefix.map { $0 + "/" + relative }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        }

        /// The GeoClue section `make install` puts under the doc folder.
        public var geoClueSnippet: String? { file("share/doc/chime/geoclue-chime.conf") }

        /// The filled-in systemd user unit `make install` wrote.
        public var unit: String? { file("share/systemd/user/chime.service") ?? file("lib/systemd/user/chime.service") }
    }

    /// How to get the user unit running: enable the installed unit (a path outside systemd's own
    /// folders is linked in by `enable`), or install it first. Config/chime.service itself is a
    /// template (`@BINDIR@`) that cannot start.
    static func unitInstall(_ installed: Installed, messages: Messages = .english) -> String {
        if let unit = installed.unit { return "systemctl --user enable --now \(shellQuoted(unit))" }
        return messages(
            "make install in chime's source tree, then {commands}",
            ["commands": "systemctl --user daemon-reload && systemctl --user enable --now chime"])
    }

    /// How to give GeoClue the `[chime]` section: from the installed copy, else from the source tree.
    static func geoClueSnippetInstall(_ installed: Installed, hasDropInFolder: Bool, messages: Messages = .english) -> String {
        let source = installed.geoClueSnippet.map(shellQuoted) ?? "Config/geoclue-chime.conf"
        let command =
            hasDropInFolder
            ? "sudo cp \(source) /etc/geoclue/conf.d/90-chime.conf"
            : messages("{command} (then restart geoclue)", ["command": "sudo tee -a /etc/geoclue/geoclue.conf < \(source) > /dev/null"])
        return installed.geoClueSnippet == nil ? messages("from the source tree: {command}", ["command": command]) : command
    }
}
