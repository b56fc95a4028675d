import Foundation
import Testing

/// Runs `chime` against a fresh store file, with the clock and zone pinned.
public struct StoreSession: Sendable {
    public let folder: String
    public let path: String
    public let environment: [String: String]

    public init(zone: String = "Europe/Berlin", now: String = "2026-11-20T12:00:00Z") {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-cli-\(UUID().uuidString)").path
        path = folder + "/data/chime.sqlite"
        environment = ["CHIME_STORE": path, "TZ": zone, "CHIME_NOW": now]
    }

    @discardableResult
    public func run(_ arguments: String...) throws -> CLIResult { try CLI.run(arguments, environment: environment) }

    public func run(_ arguments: [String]) throws -> CLIResult { try CLI.run(arguments, environment: environment) }

    /// Writes `lines` as a file named `name` in the session's folder, with CRLF line ends as
    /// iCalendar has them (the last line "" ends the file with one); returns its path.
    public func writeFile(_ name: String, lines: [String]) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/" + name
        try lines.joined(separator: "\r\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Runs `chime ARGUMENTS` with `script` as the editor (`$1` is the form's file; `$VISUAL` empty).
    public func runEditing(_ script: String, _ arguments: [String]) throws -> CLIResult {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let editor = folder + "/editor-\(UUID().uuidString).sh"
        try ("#!/bin/sh\n" + script).write(toFile: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor)
        var env = environment
        env["EDITOR"] = editor
        env["VISUAL"] = ""
        return try CLI.run(arguments, environment: env)
    }

    /// The ID line `chime add` prints.
    public func add(_ arguments: String...) throws -> String {
        let r = try CLI.run(["add"] + arguments, environment: environment)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return String(r.stdout.split(separator: "\n").last { $0.hasPrefix("ID ") }?.dropFirst(3) ?? "")
    }

    public func json(_ arguments: String...) throws -> Any {
        let r = try CLI.run(arguments + ["--json"], environment: environment)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return try JSONDocument.body(r.stdout)
    }
}

/// Reads a JSON document (`{"chime_json":1,…}`, see docs/json.md): checks the version and gives
/// what it carries, the one field besides the version (the list or the item), or the rest of
/// the object when there are several.
public enum JSONDocument {
    public static func body(_ text: String) throws -> Any {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text.prefix(200))")
        #expect(object["chime_json"] as? Int == 1, "\(text.prefix(200))")
        var rest = object
        rest.removeValue(forKey: "chime_json")
        return rest.count == 1 ? rest.first!.value : rest
    }

    /// A field of a time object (`{"local","utc","all_day","time_zone"}`) as text.
    public static func time(_ value: Any?, _ field: String) -> String? { (value as? [String: Any])?[field] as? String }
}

/// Replaces identifiers (whole UUIDs, and the 8-character starts human views print) with a
/// placeholder so snapshots are stable; an occurrence after `@` (`@20261123T080000Z`) is kept.
public func redactIDs(_ text: String) -> String {
    text.replacingOccurrences(
        of: "(?<![@0-9A-F])[0-9A-F]{8}(?:-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})?(?![0-9A-F])",
        with: "<ID>", options: .regularExpression)
}
