import Foundation
import Synchronization

/// Errors naming a time zone that cannot be used.
public enum TimeZoneError: Error, Equatable, CustomStringConvertible {
    case unknown(String)
    case unreadable(String, reason: String)

    public var description: String {
        switch self {
        case .unknown(let name): return "unknown time zone \"\(name)\" (expected an IANA name such as Europe/Berlin, or UTC)"
        case .unreadable(let name, let reason): return "time zone \"\(name)\" cannot be read: \(reason)"
        }
    }
}

extension ZoneRules {
    /// The folder the system tzdata is read from: `$TZDIR`, else `/usr/share/zoneinfo`.
    public static var zoneInfoDirectory: String {
        ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
    }

    private static let cache = Mutex<[String: ZoneRules]>([:])

    /// The rules of an IANA zone, loaded once per process from the system tzdata and cached.
    ///
    /// `"UTC"`, `"Etc/UTC"`, `"GMT"` and `"Z"` are the fixed UTC zone. A `POSIX:` name is built
    /// from the rule it carries (see ``posixPrefix``).
    ///
    /// ```swift
    /// let berlin = try ZoneRules.named("Europe/Berlin")
    /// ```
    public static func named(_ name: String) throws(TimeZoneError) -> ZoneRules {
        switch name {
        case "UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z", "Zulu", "Etc/Zulu", "Universal", "Etc/Universal": return .utc
        default: break
        }
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let rules: ZoneRules
        if name.hasPrefix(posixPrefix) {
            guard let posix = posix(named: name) else { throw .unknown(name) }
            rules = posix
        } else {
            rules = try load(name)
        }
        return cache.withLock { table in
            if let raced = table[name] { return raced }
            table[name] = rules
            return rules
        }
    }

    private static func load(_ name: String) throws(TimeZoneError) -> ZoneRules {
        // Names are paths under the tzdata folder: refuse anything that could escape it.
        let allowed = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/_-+".unicodeScalars.contains($0) }
        guard !name.isEmpty, allowed, !name.hasPrefix("/"), !name.split(separator: "/").contains(".."),
            !name.hasPrefix("posix/") && !name.hasPrefix("right/")
        else { throw .unknown(name) }
        let path = zoneInfoDirectory + "/" + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = FileManager.default.contents(atPath: path)
        else { throw .unknown(name) }
        return try tzif([UInt8](data), identifier: name)
    }

    /// Rules read from TZif bytes (a zoneinfo file, or a copied `/etc/localtime`), not cached.
    ///
    /// ```swift
    /// let local = try ZoneRules.tzif(bytes, identifier: "localtime")
    /// ```
    public static func tzif(_ bytes: [UInt8], identifier: String) throws(TimeZoneError) -> ZoneRules {
        let tzif: TZifData
        do { tzif = try TZifData(bytes: bytes) } catch { throw .unreadable(identifier, reason: "\(error)") }
        let footer = tzif.footer.flatMap(PosixTimeZoneRule.init)
        return ZoneRules(
            identifier: identifier, transitions: tzif.transitions, offsetsAfter: tzif.offsetsAfter,
            initialOffset: tzif.initialOffset, footer: footer)
    }
}
