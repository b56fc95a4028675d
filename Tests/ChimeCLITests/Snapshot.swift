import Foundation
import Testing

/// Output users read is compared with stored files; `CHIME_RECORD_SNAPSHOTS=1` re-records them.
enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["CHIME_RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let stored = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("missing snapshot \(name); run with CHIME_RECORD_SNAPSHOTS=1 to record it", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == stored, "output differs from Snapshots/\(name)", sourceLocation: sourceLocation)
    }
}
