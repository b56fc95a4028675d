import Foundation
import ChimeTestKit
import Testing

/// On a terminal (a pseudo-terminal from `script` here) the views cut long titles with "…" so a
/// line fits `$COLUMNS`, keeping the reference whole; piped, the title is kept whole.
@Suite("Long titles on a terminal")
struct LineFitTests {
    static let title = "Quarterly planning review with the whole extended leadership team and every regional lead, remote"

    /// `chime ARGUMENTS` in a pseudo-terminal of `columns` columns; its lines without the carriage returns.
    func onATerminal(_ s: StoreSession, _ arguments: String, columns: Int) throws -> [String] {
        var env = s.environment
        env["COLUMNS"] = "\(columns)"
        env["NO_COLOR"] = "1"
        let r = try CLI.run(["-qec", "'\(CLI.binary.path)' \(arguments)", "/dev/null"], environment: env, executable: "/usr/bin/script")
        #expect(r.status == 0, "\(arguments): \(r.stdout)\(r.stderr)")
        return r.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
    }

    @Test func longTitlesAreCutToTheTerminalsWidthAndKeptWholeWhenPiped() throws {
        let s = StoreSession(zone: "Europe/Berlin", now: "2026-11-23T07:00:00Z")
        defer { try? FileManager.default.removeItem(atPath: s.folder) }
        let event = try s.add("event", Self.title, "--start", "2026-11-23T10:00", "--duration", "1h", "--repeat", "daily", "--alarm", "15m")
        let reminder = try s.add("reminder", Self.title, "--due", "2026-11-23T12:00", "--priority", "1")
        for (arguments, id) in [("agenda --days 2", event), ("alarms --hours 24", event), ("reminders", reminder), ("find quarterly", event)] {
            for columns in [80, 100] {  // the title keeps at least LineFit.shortestTitle characters: narrower, a line may run over
                let lines = try onATerminal(s, arguments, columns: columns)
                let long = lines.filter { $0.contains(String(id.prefix(8))) }
                #expect(!long.isEmpty, "\(arguments): \(lines)")
                for line in lines { #expect(line.count <= columns, "\(arguments) at \(columns) columns: \(line.count): \(line)") }
                for line in long {
                    #expect(line.contains("Quarterly planning") && line.contains("…"), "\(arguments): \(line)")
                    #expect(!line.contains(Self.title), "\(arguments): \(line)")
                }
            }
            // Piped, nothing is cut.
            let piped = try s.run(arguments.split(separator: " ").map(String.init)).stdout
            #expect(piped.contains(Self.title) && !piped.contains("…"), "\(arguments): \(piped)")
        }
    }
}
