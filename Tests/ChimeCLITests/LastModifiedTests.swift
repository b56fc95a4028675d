import Foundation
import Glibc
import ChimeTestKit
import Testing

/// Every edit stamps LAST-MODIFIED with the store's clock (`CHIME_NOW` here), so an export tells
/// other clients and sync that the item changed; an imported value is not written back stale.
@Suite("LAST-MODIFIED after edits")
struct LastModifiedTests {
    static let file = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//EN
        BEGIN:VEVENT
        UID:options@example.com
        DTSTAMP:20240101T000000Z
        LAST-MODIFIED:20240101T000000Z
        SUMMARY:Edited with options
        DTSTART:20261123T090000Z
        DTEND:20261123T100000Z
        END:VEVENT
        BEGIN:VEVENT
        UID:editor@example.com
        DTSTAMP:20240101T000000Z
        LAST-MODIFIED:20240101T000000Z
        SUMMARY:Edited in the editor
        DTSTART:20261124T090000Z
        DTEND:20261124T100000Z
        END:VEVENT
        BEGIN:VEVENT
        UID:untouched@example.com
        DTSTAMP:20240101T000000Z
        LAST-MODIFIED:20240101T000000Z
        SUMMARY:Untouched
        DTSTART:20261125T090000Z
        DTEND:20261125T100000Z
        END:VEVENT
        BEGIN:VTODO
        UID:done@example.com
        DTSTAMP:20240101T000000Z
        LAST-MODIFIED:20240101T000000Z
        SUMMARY:Completed
        DUE:20261123T100000Z
        END:VTODO
        END:VCALENDAR

        """.replacingOccurrences(of: "\n", with: "\r\n")

    /// The lines of the exported component with this UID.
    static func component(_ uid: String, in ics: String) -> [String] {
        let lines = ics.components(separatedBy: "\r\n")
        guard let at = lines.firstIndex(of: "UID:" + uid), let end = lines[at...].firstIndex(where: { $0.hasPrefix("END:") }) else { return [] }
        return Array(lines[at..<end])
    }

    @Test func anEditWritesAFreshLastModifiedInTheExport() throws {
        let s = StoreSession()
        let path = s.folder + "/old.ics"
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        try Self.file.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try s.run("import", path).status == 0)

        // Each path at its own now, so each stamp is its own.
        func at(_ now: String, editor: String? = nil, _ arguments: String...) throws -> CLIResult {
            var env = s.environment
            env["CHIME_NOW"] = now
            if let editor {
                let script = s.folder + "/editor.sh"
                try ("#!/bin/sh\n" + editor).write(toFile: script, atomically: true, encoding: .utf8)
                chmod(script, 0o755)
                env["EDITOR"] = script
                env["VISUAL"] = ""
            }
            let r = try CLI.run(arguments, environment: env)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            return r
        }
        try at("2026-11-20T13:00:00Z", "edit", "Edited with options", "--title", "Edited with options (moved)")
        try at(
            "2026-11-20T14:00:00Z", editor: "sed -i 's/^title: .*/title: Edited in the editor (new)/' \"$1\"",
            "edit", "Edited in the editor")
        try at("2026-11-20T15:00:00Z", "complete", "Completed")

        let ics = try s.run("export").stdout
        let options = Self.component("options@example.com", in: ics)
        #expect(options.contains("LAST-MODIFIED:20261120T130000Z") && options.contains("SEQUENCE:1"), "\(options)")
        let editor = Self.component("editor@example.com", in: ics)
        #expect(editor.contains("LAST-MODIFIED:20261120T140000Z"), "\(editor)")
        let done = Self.component("done@example.com", in: ics)
        #expect(done.contains("LAST-MODIFIED:20261120T150000Z"), "\(done)")
        for edited in [options, editor, done] {
            #expect(edited.filter { $0.hasPrefix("LAST-MODIFIED") }.count == 1, "\(edited)")
        }
        // An item nobody edited keeps the file's value.
        #expect(Self.component("untouched@example.com", in: ics).contains("LAST-MODIFIED:20240101T000000Z"), "\(ics)")

        // Uncompleting is a change too.
        try at("2026-11-20T16:00:00Z", "uncomplete", "Completed")
        #expect(Self.component("done@example.com", in: try s.run("export").stdout).contains("LAST-MODIFIED:20261120T160000Z"))
    }

    /// An item made here gets a LAST-MODIFIED once it is edited.
    @Test func aLocalItemGetsOneWhenEdited() throws {
        let s = StoreSession()
        let id = try s.add("event", "Review", "--start", "2026-11-23T14:00")
        #expect(!(try s.run("export").stdout.contains("LAST-MODIFIED")))
        #expect(try s.run("edit", id, "--location", "Room 2").status == 0)
        #expect(try s.run("export").stdout.contains("LAST-MODIFIED:20261120T120000Z"))
    }
}
