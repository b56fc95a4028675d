import ChimeDesktop
import ChimeScheduler
import Foundation
import Testing

/// `XDGOpener` runs its program with the URL as one argument, without a shell: a URL full of shell
/// syntax arrives verbatim and runs nothing. (A stand-in script replaces `xdg-open`, which would
/// start a browser.)
@Suite struct XDGOpenerTests {
    @Test func theURLIsPassedAsOneArgumentWithoutAShell() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-open-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/fake-xdg-open"
        let record = folder + "/args"
        try "#!/bin/sh\nprintf '%s|' \"$#\" \"$@\" > \(record).tmp && mv \(record).tmp \(record)\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)

        let url = "https://example.org/a b;touch \(folder)/pwned$(touch \(folder)/pwned2)`id`"
        try XDGOpener(command: script).open(url)
        var recorded: String?
        for _ in 0..<200 where recorded == nil {
            recorded = try? String(contentsOfFile: record, encoding: .utf8)
            if recorded == nil { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(recorded == "1|\(url)|")
        #expect(!FileManager.default.fileExists(atPath: folder + "/pwned"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/pwned2"))
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: OpenError.self) { try XDGOpener(command: "/nonexistent/chime-test/xdg-open").open("https://example.org") }
    }
}
