import Foundation

/// The daemon part of chime-store-bench (start-up, footprint, lateness): `chime daemon` on the
/// benchmark store — start-up to "scheduled, sleeping" against calcurse loading the same data,
/// resident memory, CPU and wake-ups over an idle stretch, firing lateness of 200 alarms, CLI
/// edit → "rescheduled". It reports; no target fails the run.
struct DaemonBenchSetup {
    var chime: String
    var calcurse: String?
    var calcurseDir: String
    var calcurseEnvironment: [String: String]
    /// The benchmark's working folder; the daemon's stores go into folders of their own below it.
    var folder: String
    /// The generated store (copied, never run on directly).
    var sourceStore: String
    var runs: Int
    var idleSeconds: Int
    var edits = 20
    /// The same store with ten years of past events added (`--history`), or nil.
    var grownStore: String?
    /// How many past events it holds.
    var historyEvents = 0
}

enum DaemonBench {
    /// Runs every part in order (start-up, edit → rescheduled, lateness, idle) and returns the
    /// report's lines. A part that cannot be measured says why in its row.
    static func run(_ setup: DaemonBenchSetup) -> [String] {
        var report = DaemonBenchReport(setup: setup, loadBefore: loadAverage())
        do {
            let launcher = try DaemonLauncher(chime: setup.chime, folder: setup.folder)
            let store = try StoreCopy.make(from: setup.sourceStore, into: setup.folder + "/daemon")
            report.startup = capture {
                try DaemonStartup.measure(
                    launcher: launcher, store: store, emptyFolder: setup.folder + "/daemon-empty",
                    runs: setup.runs, calcurse: setup.calcurse,
                    calcurseDir: setup.calcurseDir, calcurseEnvironment: setup.calcurseEnvironment)
            }
            report.reschedule = capture { try DaemonReschedule.measure(launcher: launcher, store: store, edits: setup.edits) }
            report.lateness = capture { try DaemonLateness.measure(launcher: launcher, store: store) }
            if let grownStore = setup.grownStore {
                let grown = try StoreCopy.make(from: grownStore, into: setup.folder + "/daemon-grown")
                report.grown = capture {
                    try DaemonGrown.measure(launcher: launcher, current: store, grown: grown, runs: setup.runs, edits: setup.edits)
                }
            }
            report.idle = capture {
                try DaemonIdle.measure(
                    launcher: launcher, source: store, folder: setup.folder + "/daemon-idle",
                    idleSeconds: setup.idleSeconds)
            }
        } catch {
            report.setupError = "\(error)"
        }
        report.loadAfter = loadAverage()
        return report.lines()
    }

    private static func capture<T>(_ body: () throws -> T) -> Result<T, DaemonBenchError> {
        do { return .success(try body()) } catch let error as DaemonBenchError { return .failure(error) } catch {
            return .failure(DaemonBenchError("\(error)"))
        }
    }
}
