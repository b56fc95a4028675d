import ChimeCore
import ChimeICS
import ChimeStore
import Foundation
import Glibc

/// The iCalendar part: the generated store exported to one .ics file (10,000 events, 2,000 to-dos),
/// then imported into a fresh store, as whole `chime export` / `chime import` processes and in
/// process; calcurse imports the same file in the same run (`calcurse -i`).
enum IcsBench {
    static func run(
        chime: String, calcurse: String?, folder: String, sourceStore: String, runs: Int,
        environment: [String: String]
    ) -> [String] {
        let file = folder + "/export.ics"
        var env = environment
        env["CHIME_STORE"] = sourceStore
        var exportProcess = Sample(), importProcess = Sample(), exportInProcess = Sample(), importInProcess = Sample()
        var calcurseImport = Sample()
        var calcurseNote = ""
        var lines: [String] = []
        var counts = ""
        for run in 0..<runs {
            let exported = timeProcess(chime, ["export", "-o", file], environment: env)
            guard exported.status == 0 else { return ["chime export failed with status \(exported.status)"] }
            exportProcess.add(exported.seconds)

            let target = folder + "/imported-\(run).sqlite"
            var importEnv = environment
            importEnv["CHIME_STORE"] = target
            // Each timed import starts with nothing of the benchmark's own earlier writes (the
            // export just made, the last run's stores and calcurse's files) waiting to be written:
            // its commit flushes the file system's journal, which would wait for them too.
            sync()
            let imported = timeProcess(chime, ["import", file, "--json"], environment: importEnv, stdout: folder + "/import-report.json")
            guard imported.status == 0 else { return ["chime import failed with status \(imported.status)"] }
            importProcess.add(imported.seconds)
            counts = (try? String(contentsOfFile: folder + "/import-report.json", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }

            // In process: the library calls alone.
            do {
                let store = try EventStore(path: sourceStore, floatingZone: .utc)
                let clock = ContinuousClock()
                var bytes: [UInt8] = []
                exportInProcess.add(
                    seconds(
                        try clock.measure {
                            bytes = ICalendar.serialize(try store.allItems(in: nil), now: Instant(secondsSince1970: 1_795_176_000), floatingZone: .utc)
                        }))
                let fresh = try EventStore(path: target, floatingZone: .utc)
                importInProcess.add(seconds(try clock.measure { _ = try fresh.importICS(bytes, file: "export.ics") }))
            } catch {
                return ["in-process import/export failed: \(error)"]
            }
            for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }

            if let calcurse, run < 3 {
                let dir = folder + "/calcurse-import-\(run)"
                try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                sync()  // as for chime's import above
                let t = timeProcess(calcurse, ["-D", dir, "-q", "-i", file], environment: environment)
                // calcurse exits non-zero when it skipped some items (it cannot take every rule); still timed.
                calcurseImport.add(t.seconds)
                if t.status != 0 { calcurseNote = "calcurse -i exited \(t.status): it skipped items it cannot represent" }
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
        let ms = { (s: Sample) in "median \(fixed(s.median * 1000, 1)) ms (min \(fixed(s.min * 1000, 1)))" }
        lines.append("iCalendar: the generated store exported to one file of \(grouped(Int(fileSize(file)))) bytes, imported into a fresh store; \(runs) runs")
        lines.append(padRight("chime export (process)", 40) + ms(exportProcess) + "   target < 500 ms: " + (exportProcess.median < 0.5 ? "met" : "MISSED"))
        lines.append(padRight("chime import (process)", 40) + ms(importProcess) + "   target < 1000 ms: " + (importProcess.median < 1.0 ? "met" : "MISSED"))
        lines.append(padRight("  ICalendar.serialize + allItems", 40) + ms(exportInProcess))
        lines.append(padRight("  EventStore.importICS", 40) + ms(importInProcess))
        if calcurseImport.values.isEmpty {
            lines.append("calcurse -i: not measured (calcurse missing or it failed)")
        } else {
            lines.append(
                padRight("calcurse -i (process, same file)", 40) + ms(calcurseImport)
                    + "   calcurse/chime \(fixed(calcurseImport.median / importProcess.median, 1))×")
        }
        if !calcurseNote.isEmpty { lines.append(calcurseNote) }
        lines.append("import report: \(counts)")
        return lines
    }
}
