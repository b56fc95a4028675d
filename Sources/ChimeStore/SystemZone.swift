import ChimeCore
import Foundation

/// The system time zone as tzdata rules: `$TZ`, else `/etc/localtime`, else UTC.
public enum SystemZone {
    public static func current() -> ZoneRules {
        var name = ProcessInfo.processInfo.environment["TZ"] ?? ""
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { name = TimeZone.current.identifier }
        return (try? ZoneRules.named(name)) ?? .utc
    }
}
