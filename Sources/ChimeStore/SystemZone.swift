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
    public static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        localtime: String = "/etc/localtime"
    ) -> ZoneRules {
        resolve(environment: environment, localtime: localtime).zone
    }

    /// Where ``current(environment:localtime:)`` found the zone, for `chime doctor`.
    public enum Origin: Hashable, Sendable {
        /// `$TZ` names a zone or is a POSIX TZ rule (the value as set, a leading `:` included).
        case environment(String)
        /// `$TZ` is set but names no zone Chime knows: UTC is used instead.
        case invalidEnvironment(String)
        /// `/etc/localtime` is a link into the tzdata folder (the link's target).
        case localtimeLink(path: String, target: String)
        /// `/etc/localtime` is a copy, named by `/etc/timezone`.
        case localtimeCopy(path: String, namedBy: String)
        /// `/etc/localtime` is a copy no tzdata name matches: its rules are used as they are.
        case localtimeFile(path: String)
        /// Neither `$TZ` nor a readable `/etc/localtime`: UTC.
        case none
    }

    /// The system zone and where it came from: the one reading behind ``current(environment:localtime:)``.
    ///
    /// ```swift
    /// let (zone, origin) = SystemZone.resolve()   // Europe/Berlin, .localtimeLink(…, "/usr/share/zoneinfo/Europe/Berlin")
    /// ```
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        localtime: String = "/etc/localtime"
    ) -> (zone: ZoneRules, origin: Origin) {
        let value = environment["TZ"] ?? ""
        var name = value
        if name.hasPrefix(":") { name.removeFirst() }
        if !name.isEmpty {
            if let zone = try? ZoneRules.named(name) { return (zone, .environment(value)) }
            // A POSIX TZ string (`CET-1CEST,M3.5.0,M10.5.0/3`), as glibc reads it too.
            if let zone = try? ZoneRules.named(ZoneRules.posixPrefix + name) { return (zone, .environment(value)) }
            return (.utc, .invalidEnvironment(value))
        }
        return localtimeZone(localtime) ?? (.utc, .none)
    }

    /// `/etc/localtime` is normally a symbolic link into the tzdata folder (`…/zoneinfo/Europe/Berlin`);
    /// a copied file is named by `/etc/timezone` (Debian) when that agrees, else read as it is.
    static func localtimeZone(_ path: String) -> (zone: ZoneRules, origin: Origin)? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path),
            let range = target.range(of: "zoneinfo/")
        {
            var name = String(target[range.upperBound...])
            for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
            if let zone = try? ZoneRules.named(name) { return (zone, .localtimeLink(path: path, target: target)) }
        }
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        let timezoneFile = folder + "/timezone"
        if let named = try? String(contentsOfFile: timezoneFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines),
            let zone = try? ZoneRules.named(named),
            FileManager.default.contents(atPath: ZoneRules.zoneInfoDirectory + "/" + named) == bytes
        {
            return (zone, .localtimeCopy(path: path, namedBy: timezoneFile))
        }
        guard let zone = try? ZoneRules.tzif([UInt8](bytes), identifier: "localtime") else { return nil }
        return (zone, .localtimeFile(path: path))
    }
}
