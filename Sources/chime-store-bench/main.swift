import ChimeCore
import ChimeStore
import ChimeTestSupport
import Foundation
import Glibc

// chime-store-bench: the calendar store on a seeded 10,000-event store — one-year queries,
// lookups, whole `chime agenda` processes, file size, cross-process change latency — with
// calcurse on the same events in the same run, interleaved run by run. Medians and minimums.
// Then `chime daemon` on the same store (DaemonBench*.swift): start-up to "scheduled, sleeping"
// against calcurse, memory, an idle stretch, firing lateness, CLI edit → "rescheduled".
//   usage: chime-store-bench [--runs 5] [--seed 2026] [--events 10000] [--reminders 2000]
//                            [--chime PATH_TO_chime] [--keep DIR]
//                            [--only daemon|store|ics|first-query] [--idle-seconds 60] [--history 90000]
//   --history N adds a copy of the store with N past events (ten years of history) for the
//   daemon part: start and memory beside the current store, edit → "rescheduled" on it.
//   chime-store-bench --only soak [--writers 8,16] [--operations 40] [--chime PATH] [--no-hostile-bus]:
//   concurrent writer processes, the daemon, a reader and a hostile D-Bus client on one store;
//   lost updates, wrong answers and alarm lateness counted (SoakBench.swift).

let args = CommandLine.arguments
if args.count >= 4 && args[1] == "--writer" { LatencyProbe.writerMain(path: args[2], count: Int(args[3]) ?? 100) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write("chime-store-bench: \(message)\n".data(using: .utf8)!)
    exit(1)
}

let runs = max(1, BenchmarkOptions.integer("--runs", 5))
let seed = UInt64(BenchmarkOptions.integer("--seed", 2026))
let eventCount = BenchmarkOptions.integer("--events", 10_000)
let reminderCount = BenchmarkOptions.integer("--reminders", 2_000)
let historyCount = max(0, BenchmarkOptions.integer("--history", 0))
let latencyCount = 100
let only = BenchmarkOptions.string("--only")
if let only, !["daemon", "store", "ics", "soak", "first-query"].contains(only) {
    fail("--only must be daemon, store, ics, soak or first-query, not \(only)")
}
let idleSeconds = max(1, BenchmarkOptions.integer("--idle-seconds", 60))
let chimePath = BenchmarkOptions.string("--chime") ?? ".build-bench/release/chime"
guard access(chimePath, X_OK) == 0 else {
    fail("no chime binary at \(chimePath) (build it: swift build -c release --scratch-path .build-bench --product chime, or pass --chime)")
}
let calcursePath = which("calcurse")
let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? args[0]

// The working folder: --keep DIR (left in place), else a temporary one (removed at the end).
let keep = BenchmarkOptions.string("--keep")
let dir: String
if let keep {
    try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
    dir =
        (keep as NSString).standardizingPath.hasPrefix("/")
        ? (keep as NSString).standardizingPath
        : FileManager.default.currentDirectoryPath + "/" + keep
} else {
    var template = Array("/tmp/chime-store-bench.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fail("mkdtemp failed") }
    dir = String(cString: made)
}

// The soak run needs none of the generated data: it builds its own small stores.
if only == "soak" {
    let writers = (BenchmarkOptions.string("--writers") ?? "8,16").split(separator: ",").compactMap { Int($0) }
    var options = SoakOptions(writers: writers, operations: max(1, BenchmarkOptions.integer("--operations", 40)), seed: seed)
    options.hostileBus = !CommandLine.arguments.contains("--no-hostile-bus")
    print(SoakBench.run(chime: chimePath, folder: dir, options: options).joined(separator: "\n"))
    if keep == nil { try? FileManager.default.removeItem(atPath: dir) } else { print("kept: \(dir)") }
    exit(0)
}

let storePath = dir + "/chime.sqlite"
let calcurseDir = dir + "/calcurse"
for suffix in ["", "-wal", "-shm"] { unlink(storePath + suffix) }
try? FileManager.default.createDirectory(atPath: calcurseDir, withIntermediateDirectories: true)

let loadBefore = loadAverage()

// 1. The store, and the same events for calcurse.
let generated: GeneratedStore
do { generated = try StoreWorkload.generate(path: storePath, events: eventCount, reminders: reminderCount, seed: seed) } catch {
    fail("generating the store: \(error)")
}
let export: CalcurseExport.Result
do { export = try CalcurseExport.write(events: generated.events, reminders: generated.reminders, to: calcurseDir) } catch {
    fail("writing calcurse data: \(error)")
}

// The header: what was measured, and where.
let cpu =
    (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
var header: [String] = []
header.append(
    "Store: \(grouped(eventCount)) events (\(grouped(generated.recurringEvents)) recurring, \(grouped(generated.allDayEvents)) all-day) in \(generated.eventCalendars.count) calendars, \(grouped(reminderCount)) reminders; seed \(seed); generated in \(fixed(generated.seconds, 2)) s"
)
header.append("Machine: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores; \(runs) runs, interleaved; load average before: \(loadBefore)")
print(header.joined(separator: "\n"))

// 2. Measurements.
var environment = ProcessInfo.processInfo.environment
environment["TZ"] = "UTC"
environment["CHIME_STORE"] = storePath
environment["HOME"] = dir
// The one row a profile of a newly opened store's first query needs, alone: `--runs` stores
// opened one after another, each queried once (for `perf record`).
if only == "first-query" {
    let window = (Instant(secondsSince1970: 1_780_272_000), Instant(secondsSince1970: 1_811_808_000))  // 2026-06-01 … 2027-06-01
    var sample = Sample()
    for _ in 0..<runs {
        do {
            let fresh = try EventStore(path: storePath, floatingZone: .utc)
            let predicate = fresh.predicateForEvents(start: window.0, end: window.1)
            var n = 0
            sample.add(seconds(try ContinuousClock().measure { n = try fresh.events(matching: predicate).count }) * 1e3)
            if n == 0 { fail("the first query found nothing") }
        } catch { fail("events(matching:) on a new store: \(error)") }
    }
    print("a new store's first one-year events(matching:): median \(fixed(sample.median, 1)) ms, min \(fixed(sample.min, 1)) ms (\(runs) runs)")
    exit(0)
}
if only == nil || only == "store" {
    let from = "2026-06-01", to = "2027-06-01"
    let agendaArgs = ["agenda", "--from", from, "--to", to]
    let calcurseArgs = ["-D", calcurseDir, "--input-datefmt", "4", "-Q", "--filter-type", "cal", "--from", from, "--days", "365"]

    let store: EventStore
    do { store = try EventStore(path: storePath, floatingZone: .utc) } catch { fail("opening the store: \(error)") }
    func midnightUTC(_ y: Int, _ m: Int, _ d: Int) -> Instant {
        Instant(secondsSince1970: Int64(CivilDate(year: y, month: m, day: d).daysSinceEpoch) * 86_400)
    }
    let window = store.predicateForEvents(start: midnightUTC(2026, 6, 1), end: midnightUTC(2027, 6, 1))
    let clock = ContinuousClock()

    func queryCount() -> Int {
        do { return try store.events(matching: window).count } catch { fail("events(matching:): \(error)") }
    }
    // A store keeps what its queries decoded from its second query on: the first query of a
    // newly opened store is what a command (or an app's first look) pays.
    func firstQueryOfANewStore() -> (count: Int, milliseconds: Double) {
        do {
            let fresh = try EventStore(path: storePath, floatingZone: .utc)
            var n = 0
            let d = try clock.measure { n = try fresh.events(matching: window).count }
            return (n, seconds(d) * 1e3)
        } catch { fail("events(matching:) on a new store: \(error)") }
    }
    // The list builds an Event where one is read: this reads every one of them.
    func queryEveryEvent() -> Int {
        var n = 0
        do { for event in try store.events(matching: window) { n &+= event.title.utf8.count } } catch { fail("events(matching:): \(error)") }
        return n
    }
    func streamedCount() -> Int {
        var n = 0
        do { try store.enumerateEvents(matching: window) { _, _ in n += 1 } } catch { fail("enumerateEvents: \(error)") }
        return n
    }
    // The light path: occurrences as values, no Event built, no alarm rows read; what a listing
    // needs (title, calendar, start, end) is read from the shared stored event.
    var lightWindow = window
    lightWindow.includesAlarms = false
    func lightCount() -> Int {
        var n = 0, bytes = 0
        do {
            try store.enumerateOccurrences(matching: lightWindow) { o, _ in
                n += 1
                bytes &+= o.source.event.title.utf8.count &+ Int(o.end.secondsSince1970 & 1)
            }
        } catch { fail("enumerateOccurrences: \(error)") }
        return n &+ (bytes == -1 ? 1 : 0)
    }
    // Short windows: the cost should follow the window, not the store.
    let dayWindow = store.predicateForEvents(start: midnightUTC(2026, 6, 1), end: midnightUTC(2026, 6, 2))
    let weekWindow = store.predicateForEvents(start: midnightUTC(2026, 6, 1), end: midnightUTC(2026, 6, 8))
    func count(_ p: EventPredicate) -> Int {
        do { return try store.events(matching: p).count } catch { fail("events(matching:): \(error)") }
    }
    func firstOccurrence() -> Event? {
        var first: Event?
        do {
            try store.enumerateEvents(matching: window) { e, stop in
                first = e; stop = true
            }
        } catch { fail("enumerateEvents: \(error)") }
        return first
    }
    func lineCount(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    }
    func checked(_ what: String, _ r: (seconds: Double, status: Int32)) -> Double {
        if r.status != 0 { fail("\(what) exited with status \(r.status)") }
        return r.seconds * 1e3
    }

    // Warm-up and sanity checks (untimed): counts, output sizes.
    let chimeCount = queryCount()
    _ = firstOccurrence()
    let agendaLines = {
        _ = checked("chime agenda", timeProcess(chimePath, agendaArgs, environment: environment, stdout: dir + "/agenda.txt"));
        return lineCount(dir + "/agenda.txt")
    }()
    _ = checked("chime agenda --json", timeProcess(chimePath, agendaArgs + ["--json"], environment: environment, stdout: dir + "/agenda.json"))
    let jsonBytes = fileSize(dir + "/agenda.json")
    var calcurseLines = 0, calcurseCount = 0
    if let calcursePath {
        _ = checked("calcurse -Q", timeProcess(calcursePath, calcurseArgs, environment: environment, stdout: dir + "/calcurse.txt"))
        calcurseLines = lineCount(dir + "/calcurse.txt")
        calcurseCount = CalcurseCount.occurrences(calcursePath, calcurseArgs, environment: environment, scratch: dir + "/calcurse-count.txt")
    }

    var query = Sample(), queryCold = Sample(), queryRead = Sample(), streamed = Sample(), first = Sample(), lookup = Sample(), agendaText = Sample(),
        agendaJSON = Sample(), calcurse = Sample()
    var light = Sample(), dayQuery = Sample(), weekQuery = Sample(), agendaDay = Sample(), agendaWeek = Sample()
    var calcurseDay = Sample(), calcurseWeek = Sample()
    let dayArgs = ["agenda", "--from", from, "--days", "1"], weekArgs = ["agenda", "--from", from, "--days", "7"]
    func calcurseShort(_ days: Int) -> [String] {
        ["-D", calcurseDir, "--input-datefmt", "4", "-Q", "--filter-type", "cal", "--from", from, "--days", String(days)]
    }
    let dayCount = count(dayWindow), weekCount = count(weekWindow)
    if lightCount() != chimeCount { fail("enumerateOccurrences and events(matching:) disagree") }
    let identifiers = generated.events.map(\.identifier)
    var sink = 0
    for run in 0..<runs {
        query.add(seconds(clock.measure { sink &+= queryCount() }) * 1e3)
        let cold = firstQueryOfANewStore()
        sink &+= cold.count
        queryCold.add(cold.milliseconds)
        queryRead.add(seconds(clock.measure { sink &+= queryEveryEvent() }) * 1e3)
        streamed.add(seconds(clock.measure { sink &+= streamedCount() }) * 1e3)
        light.add(seconds(clock.measure { sink &+= lightCount() }) * 1e3)
        dayQuery.add(seconds(clock.measure { sink &+= count(dayWindow) }) * 1e3)
        weekQuery.add(seconds(clock.measure { sink &+= count(weekWindow) }) * 1e3)
        agendaDay.add(checked("chime agenda --days 1", timeProcess(chimePath, dayArgs, environment: environment)))
        agendaWeek.add(checked("chime agenda --days 7", timeProcess(chimePath, weekArgs, environment: environment)))
        if let calcursePath {
            calcurseDay.add(checked("calcurse --days 1", timeProcess(calcursePath, calcurseShort(1), environment: environment)))
            calcurseWeek.add(checked("calcurse --days 7", timeProcess(calcursePath, calcurseShort(7), environment: environment)))
        }
        first.add(seconds(clock.measure { sink &+= firstOccurrence() == nil ? 0 : 1 }) * 1e3)
        var g = SeededRandom(seed: seed &+ UInt64(run) &+ 1)
        var calls: [Double] = []
        for _ in 0..<1_000 {
            let id = identifiers[g.int(in: 0...(identifiers.count - 1))]
            let t0 = clock.now
            let found = try? store.event(withIdentifier: id)
            calls.append(seconds(clock.now - t0) * 1e6)
            if found == nil { fail("event(withIdentifier:) found nothing for \(id)") }
        }
        lookup.add(Statistics.median(calls))
        agendaText.add(checked("chime agenda", timeProcess(chimePath, agendaArgs, environment: environment)))
        agendaJSON.add(checked("chime agenda --json", timeProcess(chimePath, agendaArgs + ["--json"], environment: environment)))
        if let calcursePath { calcurse.add(checked("calcurse -Q", timeProcess(calcursePath, calcurseArgs, environment: environment))) }
    }

    // e. File size after a checkpoint.
    let checkpointError = SQLiteCheckpoint.run(path: storePath)
    let dbBytes = fileSize(storePath), walBytes = fileSize(storePath + "-wal")

    // f. Cross-process change latency, one writer per run.
    var latencies: [Double] = []
    for _ in 0..<runs {
        let (l, status) = await LatencyProbe.measure(
            store: store, path: storePath, count: latencyCount, executable: selfPath,
            environment: environment)
        if status != 0 { fail("latency writer exited with status \(status)") }
        latencies += l
    }
    let loadAfter = loadAverage()

    // 3. Report.
    func ms(_ s: Sample, _ digits: Int = 1) -> String { "median \(fixed(s.median, digits)) ms (min \(fixed(s.min, digits)))" }
    func ratio(_ a: Sample, _ b: Sample) -> String { b.values.isEmpty ? "n/a" : fixed(b.median / a.median, 2) + "×" }
    let calcurseName = calcursePath == nil ? "calcurse: not installed" : "calcurse"
    var lines: [String] = []
    lines.append(
        "Window 2026-06-01 .. 2027-06-01 (UTC): Chime \(grouped(chimeCount)) occurrences; \(calcurseName) \(grouped(calcurseCount)) occurrences (\(calcurseCount - chimeCount >= 0 ? "+" : "")\(grouped(calcurseCount - chimeCount)); approximate mapping, see notes)"
    )
    lines.append("")
    /// A one-year query's occurrences per second, from its median.
    func perSecond(_ s: Sample) -> String { fixed(Double(chimeCount) / s.median / 1e3, 2) + "M occ/s" }
    lines.append(
        padRight("one-year events(matching:)", 40)
            + "\(ms(query))   \(perSecond(query))   \(grouped(chimeCount)) occurrences; the store queried before, its decoded events kept")
    lines.append(
        padRight("one-year events(matching:), new store", 40)
            + "\(ms(queryCold))   \(perSecond(queryCold))   the store's first query: nothing decoded is kept yet")
    lines.append(padRight("one-year events(matching:), every Event", 40) + "\(ms(queryRead))   \(perSecond(queryRead))   each Event built and its title read")
    lines.append(padRight("one-year enumerateEvents (count only)", 40) + "\(ms(streamed))   \(perSecond(streamed))")
    lines.append(padRight("one-year enumerateOccurrences (light)", 40) + "\(ms(light))   \(perSecond(light))   no Event built, no alarm rows")
    lines.append(padRight("enumerateEvents to first occurrence", 40) + ms(first, 2))
    lines.append(padRight("events(matching:) one day", 40) + "\(ms(dayQuery, 2))   \(grouped(dayCount)) occurrences")
    lines.append(padRight("events(matching:) one week", 40) + "\(ms(weekQuery, 2))   \(grouped(weekCount)) occurrences")
    lines.append(
        padRight("chime agenda --days 1 (process)", 40)
            + "\(ms(agendaDay)) | calcurse --days 1 \(calcurseDay.values.isEmpty ? "n/a" : ms(calcurseDay)) | calcurse/chime \(ratio(agendaDay, calcurseDay))")
    lines.append(
        padRight("chime agenda --days 7 (process)", 40)
            + "\(ms(agendaWeek)) | calcurse --days 7 \(calcurseWeek.values.isEmpty ? "n/a" : ms(calcurseWeek)) | calcurse/chime \(ratio(agendaWeek, calcurseWeek))"
    )
    lines.append(
        padRight("event(withIdentifier:)", 40)
            + "median \(fixed(lookup.median, 1)) µs (min of run medians \(fixed(lookup.min, 1))) over 1,000 random ids per run")
    lines.append(
        padRight("chime agenda one year (process)", 40)
            + "\(ms(agendaText)) | calcurse -Q --days 365 \(calcurse.values.isEmpty ? "n/a" : ms(calcurse)) | calcurse/chime \(ratio(agendaText, calcurse))")
    lines.append(padRight("chime agenda one year --json (process)", 40) + "\(ms(agendaJSON)) | calcurse/chime \(ratio(agendaJSON, calcurse))")
    let total = dbBytes + walBytes
    lines.append(
        padRight("database file (after checkpoint)", 40)
            + "\(grouped(Int(total))) bytes = \(fixed(Double(total) / 1_048_576, 2)) MiB (.sqlite \(grouped(Int(dbBytes))), -wal \(grouped(Int(walBytes))))\(checkpointError.map { "; checkpoint failed: \($0)" } ?? "")"
    )
    lines.append(
        padRight("cross-process change latency", 40)
            + "p50 \(fixed(Statistics.percentile(latencies, 50), 2)) ms   p99 \(fixed(Statistics.percentile(latencies, 99), 2)) ms   max \(fixed(latencies.max() ?? .nan, 2)) ms   (\(latencies.count) of \(runs * latencyCount) commits, \(runs) writer processes)"
    )
    lines.append("")
    lines.append(
        "Notes: output sizes: chime agenda \(grouped(agendaLines)) lines, --json \(grouped(Int(jsonBytes))) bytes; calcurse -Q \(grouped(calcurseLines)) lines."
    )
    lines.append(
        "calcurse data: \(grouped(export.appointments)) appointments + \(grouped(export.events)) all-day events in apts, \(grouped(export.todos)) todos; \(export.moved) starts moved to a day the calcurse rule allows. calcurse runs with TZ=UTC and --filter-type cal (no todos, like chime agenda); it keeps zoned series at a fixed UTC time (no DST), so its occurrence count differs from Chime's."
    )
    lines.append("load average after: \(loadAfter)")
    print(lines.joined(separator: "\n"))
    if sink == 42 { print("") }  // keeps the optimiser honest
}

// 4. The daemon on the same store (start-up, footprint, lateness).
if only == nil || only == "daemon" {
    if only == nil { print("") }
    var setup = DaemonBenchSetup(
        chime: chimePath, calcurse: calcursePath, calcurseDir: calcurseDir,
        calcurseEnvironment: environment, folder: dir, sourceStore: storePath, runs: runs,
        idleSeconds: idleSeconds)
    if historyCount > 0 {
        // The same store, grown: a copy with ten years of past events added.
        do {
            let grown = try StoreCopy.make(from: storePath, into: dir + "/grown")
            let took = try StoreWorkload.addHistory(path: grown, events: historyCount, seed: seed)
            print("Grown store: \(grouped(historyCount)) past events and \(grouped(historyCount / 5)) completed reminders added in \(fixed(took, 1)) s")
            setup.grownStore = grown
            setup.historyEvents = historyCount
        } catch {
            fail("growing the store: \(error)")
        }
    }
    print(DaemonBench.run(setup).joined(separator: "\n"))
}

// 5. iCalendar export and import of the same store (export and import times).
if only == nil || only == "ics" {
    if only == nil { print("") }
    print(
        IcsBench.run(
            chime: chimePath, calcurse: calcursePath, folder: dir, sourceStore: storePath, runs: runs,
            environment: environment
        ).joined(separator: "\n"))
}

if keep == nil { try? FileManager.default.removeItem(atPath: dir) } else { print("kept: \(dir)") }
