import ChimeCore
import Foundation
import Glibc

/// The system time zone as tzdata rules: `$TZ`, else what `/etc/localtime` names, else UTC.
///
/// Read from the file system on every call, never from a process-lifetime cache (Foundation's
/// `TimeZone.current` keeps the zone it saw first): a daemon that asks again after the clock or
/// the zone changed gets the new zone.
///
/// ```swift
/// let zone = SystemZone.current()          // e.g. Europe/Berlin
/// ```
public enum SystemZone {
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment,
                               localtime: String = "/etc/localtime") -> ZoneRules {
        var name = environment["TZ"] ?? ""
        if name.hasPrefix(":") { name.removeFirst() }
        if !name.isEmpty { return (try? ZoneRules.named(name)) ?? .utc }
        return localtimeZone(localtime) ?? .utc
    }

    /// `/etc/localtime` is normally a symbolic link into the tzdata folder (`…/zoneinfo/Europe/Berlin`);
    /// a copied file is named by `/etc/timezone` (Debian) when that agrees, else read as it is.
    static func localtimeZone(_ path: String) -> ZoneRules? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path),
           let range = target.range(of: "zoneinfo/") {
            var name = String(target[range.upperBound...])
            for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
            if let zone = try? ZoneRules.named(name) { return zone }
        }
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        if let named = try? String(contentsOfFile: folder + "/timezone", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines),
           let zone = try? ZoneRules.named(named),
           FileManager.default.contents(atPath: ZoneRules.zoneInfoDirectory + "/" + named) == bytes {
            return zone
        }
        return try? ZoneRules.tzif([UInt8](bytes), identifier: "localtime")
    }
}
