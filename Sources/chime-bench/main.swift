import ChimeCore
import ChimeTestSupport
import Foundation
import LibicalShim

// chime-bench: Chime's recurrence engine against libical on the same workload, in the same run,
// interleaved run by run so machine noise hits both alike. Reports medians and the ratio.
//   usage: chime-bench [--rules N] [--runs N] [--seed N] [--engine chime|both]
//          chime-bench --write-batch FILE [--rules N] [--seed N]
//   --write-batch writes the same workload as `chime expand --batch` input lines (each limited to
//   500 occurrences or 2040-01-01) and exits: Tests/bench/expand-batch-bench.py times whole
//   processes on it. --engine chime measures Chime's engine alone (the in-process reference).

let ruleCount = BenchmarkOptions.integer("--rules", 2_000)
let runs = BenchmarkOptions.integer("--runs", 5)
let seed = UInt64(BenchmarkOptions.integer("--seed", 2026))
let perRuleLimit = 500
let horizon = Instant(secondsSince1970: 2_208_988_800)  // 2040-01-01T00:00:00Z
let workload = Workload.rules(count: ruleCount, seed: seed)
let chimeOnly = BenchmarkOptions.string("--engine") == "chime"

if let batchFile = BenchmarkOptions.string("--write-batch") {
    var text = ""
    for (i, r) in workload.enumerated() {
        text +=
            #"{"id":"r\#(i + 1)","dtstart":"\#(r.dtstart.basicFormat)","tzid":"\#(r.zone)","rrule":"\#(r.rrule)","#
            + #""limit":{"count":\#(perRuleLimit),"until_utc":"\#(horizon.utcBasicFormat)"}}"# + "\n"
    }
    guard FileManager.default.createFile(atPath: batchFile, contents: Data(text.utf8)) else {
        print("chime-bench: cannot write \(batchFile)")
        exit(1)
    }
    exit(0)
}

@inline(never) func runChime() -> Int {
    var total = 0
    for r in workload {
        let zone = try! ZoneRules.named(r.zone)
        let start: RecurrenceStart = .wallTime(r.dtstart, in: zone)
        let set = RecurrenceSet(start: start, rules: [try! RecurrenceRule(parsing: r.rrule)])
        var n = 0
        for o in set.occurrences() {
            if o.instant > horizon { break }
            n += 1
            if n == perRuleLimit { break }
        }
        total += n
    }
    return total
}

let libicalInputs = workload.map { ($0.rrule, $0.dtstart.basicFormat, $0.zone) }
@inline(never) func runLibical() -> Int {
    var buffer = [Int64](repeating: 0, count: perRuleLimit)
    var total = 0
    for (rrule, dtstart, zone) in libicalInputs {
        let n = chime_libical_expand(rrule, dtstart, zone, horizon.secondsSince1970, Int32(perRuleLimit), &buffer)
        if n > 0 { total += Int(n) }
    }
    return total
}

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

let clock = ContinuousClock()
var chimeTimes: [Double] = []
var libicalTimes: [Double] = []
var chimeCount = 0
var libicalCount = 0
_ = runChime()  // warm the zone cache, as a long-running process would be
if !chimeOnly { _ = runLibical() }
for _ in 0..<runs {
    chimeTimes.append(seconds(clock.measure { chimeCount = runChime() }))
    if !chimeOnly { libicalTimes.append(seconds(clock.measure { libicalCount = runLibical() })) }
}
if chimeOnly {
    print(
        "Chime engine in process: \(chimeCount) occurrences, median \(String(format: "%.4f", Statistics.median(chimeTimes))) s per run, "
            + "\(String(format: "%.0f", Double(chimeCount) / Statistics.median(chimeTimes))) occurrences/s")
    exit(0)
}
let chimeRate = Double(chimeCount) / Statistics.median(chimeTimes)
let libicalRate = Double(libicalCount) / Statistics.median(libicalTimes)

// next(after:) on a daily rule started in 1970, asked about 2030.
let ny = try! ZoneRules.named("America/New_York")
let daily = RecurrenceSet(
    start: .zoned(LocalDateTime(year: 1970, month: 1, day: 1, hour: 9), ny),
    rules: [try! RecurrenceRule(parsing: "FREQ=DAILY")])
let probe = ny.instant(for: LocalDateTime(year: 2030, month: 6, day: 15, hour: 12))
var nextTimes: [Double] = []
var sink = 0
for _ in 0..<runs {
    let calls = 20_000
    let t = clock.measure {
        for i in 0..<calls {
            sink &+= Int(daily.next(after: Instant(secondsSince1970: probe.secondsSince1970 + Int64(i * 3_600)))!.instant.secondsSince1970)
        }
    }
    nextTimes.append(seconds(t) / Double(calls) * 1e6)
}

// Streaming memory: expand 5 million occurrences of an infinite rule and watch peak RSS.
func maxRSSKiB() -> Int { var u = rusage(); getrusage(RUSAGE_SELF.rawValue, &u); return u.ru_maxrss }
let rssBefore = maxRSSKiB()
let minutely = RecurrenceSet(
    start: .zoned(LocalDateTime(year: 2026, month: 1, day: 1), ny),
    rules: [try! RecurrenceRule(parsing: "FREQ=MINUTELY;BYHOUR=9,10,11,12,13,14,15,16")])
var streamed = 0
for o in minutely.occurrences() { streamed += 1; sink &+= Int(o.instant.secondsSince1970 & 1); if streamed == 5_000_000 { break } }
let rssAfter = maxRSSKiB()

func format(_ x: Double) -> String { String(format: "%.0f", x) }
let cpu =
    (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
print(
    """
    Workload: \(ruleCount) seeded rules (seed \(seed)), 5 zones, each to \(perRuleLimit) occurrences or 2040-01-01; \
    \(runs) runs each, interleaved; median.
    Machine: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores.

    | engine | occurrences per run | median time per run | occurrences/s |
    |---|---:|---:|---:|
    | Chime | \(chimeCount) | \(String(format: "%.3f", Statistics.median(chimeTimes))) s | \(format(chimeRate)) |
    | libical \(String(cString: chime_libical_version())) | \(libicalCount) | \(String(format: "%.3f", Statistics.median(libicalTimes))) s | \(format(libicalRate)) |

    Chime / libical throughput: \(String(format: "%.1f", chimeRate / libicalRate))x
    next(after:) daily rule from 1970, asked about 2030: median \(String(format: "%.2f", Statistics.median(nextTimes))) µs per call
    Streaming 5,000,000 occurrences: peak RSS \(rssBefore / 1024) MiB before, \(rssAfter / 1024) MiB after
    """)
if sink == 42 { print("") }  // keeps the optimiser honest
