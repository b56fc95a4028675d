import ChimeCore
import ChimeTestSupport
import Foundation

// chime-geofence-bench: the geofence engine with many fences (the target: 100,000 fences,
// one fix evaluated in under 50 µs median), against a brute-force scan of every fence in the
// same run (what an engine without a spatial index does; no calendar peer has geofences).
//   usage: chime-geofence-bench [--fences N] [--fixes N] [--runs N] [--seed N]

let fenceCount = BenchmarkOptions.integer("--fences", 100_000)
let fixCount = BenchmarkOptions.integer("--fixes", 10_000)
let runs = BenchmarkOptions.integer("--runs", 5)
let seed = UInt64(BenchmarkOptions.integer("--seed", 2026))
let berlin = Coordinate(latitude: 52.52, longitude: 13.405)
let clock = ContinuousClock()

func microseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12 }

func offset(_ origin: Coordinate, north: Double, east: Double) -> Coordinate {
    Coordinate(
        latitude: origin.latitude + north / Geodesy.metresPerDegree,
        longitude: origin.longitude + east / Geodesy.metresPerDegreeOfLongitude(atLatitude: origin.latitude))
}

// Fences spread over a 60 × 60 km metropolitan area, radii 50–500 m (0 = the default for some).
var random = SeededRandom(seed: seed)
let settings = GeofenceSettings()
let fences: [Geofence] = (0..<fenceCount).map { i in
    let center = offset(berlin, north: random.double(in: -30_000..<30_000), east: random.double(in: -30_000..<30_000))
    let radius = i % 10 == 0 ? 0 : random.double(in: 50..<500)
    let place = StructuredLocation(title: "Place \(i)", latitude: center.latitude, longitude: center.longitude, radius: radius)
    let proximity: Proximity = i % 2 == 0 ? .enter : .leave
    let alarm = Alarm.location(place, proximity)
    return Geofence(
        key: FiringKey(item: "item-\(i)", occurrence: Instant(secondsSince1970: 0), alarm: alarm.trigger.locationKeyText!),
        place: place, radius: settings.effectiveRadius(radius), proximity: proximity,
        item: ItemSummary(identifier: "item-\(i)", kind: .reminder, title: "Reminder \(i)"),
        occurrenceStart: nil, occurrenceEnd: nil)
}

// A walk through the area: 10 m steps every 2 s with turns, positions ±5–30 m accurate.
var position = berlin
var heading = 0.0
let track: [LocationFix] = (0..<fixCount).map { i in
    heading += random.double(in: -0.4..<0.4)
    position = offset(position, north: 10 * cos(heading), east: 10 * sin(heading))
    return LocationFix(
        coordinate: position, horizontalAccuracy: random.double(in: 5..<30),
        timestampMilliseconds: 1_796_112_000_000 + Int64(i) * 2_000)
}

print("geofence engine: \(fenceCount) fences, \(fixCount) fixes per run, \(runs) runs (release build)")

var armMs: [Double] = []
var perFix: [Double] = []
var perRunMedians: [Double] = []
var crossings = 0
var nearestUs: [Double] = []
for run in 0..<runs {
    var engine = GeofenceEngine(settings: settings)
    let armStart = clock.now
    for fence in fences { engine.arm(fence) }
    armMs.append(microseconds(clock.now - armStart) / 1000)
    _ = engine.process(track[0])  // the first fix settles every fence once (O(n)); not a steady-state fix
    var times: [Double] = []
    times.reserveCapacity(fixCount)
    for fix in track.dropFirst() {
        let t0 = clock.now
        let step = engine.process(fix)
        times.append(microseconds(clock.now - t0))
        if run == 0 { crossings += step.firing.count }
    }
    perFix += times
    perRunMedians.append(Statistics.median(times))
    for fix in track.prefix(200) {
        let t0 = clock.now
        _ = engine.nearestBoundaryDistance(from: fix.coordinate, limit: TrackingPolicy.midMetres)
        nearestUs.append(microseconds(clock.now - t0))
    }
}

// Brute force: every fence's distance for each fix (what the index avoids), on fewer fixes.
var bruteUs: [Double] = []
var insideCount = 0
for _ in 0..<runs {
    for fix in track.prefix(100) {
        let t0 = clock.now
        var inside = 0
        for fence in fences where Geodesy.distance(fence.center, fix.coordinate) <= fence.radius { inside += 1 }
        bruteUs.append(microseconds(clock.now - t0))
        insideCount &+= inside
    }
}

func format(_ x: Double) -> String { "\((x * 100).rounded() / 100)" }
let median = Statistics.median(perFix)
let bruteMedian = Statistics.median(bruteUs)
print("arm \(fenceCount) fences: median \(format(Statistics.median(armMs))) ms")
print(
    "one fix (engine.process): median \(format(median)) µs, p99 \(format(Statistics.percentile(perFix, 99))) µs;"
        + " per-run medians \(perRunMedians.map(format).joined(separator: ", ")) µs; target < 50 µs: \(median < 50 ? "met" : "MISSED")")
print("crossings along the track (run 1): \(crossings) firing transitions")
print("nearest fence boundary (adaptive tracking, ≤ 10 km): median \(format(Statistics.median(nearestUs))) µs")
print(
    "brute-force scan of all fences per fix: median \(format(bruteMedian)) µs, \(format(bruteMedian / median))× the indexed fix"
        + " (\(insideCount) fence hits over \(bruteUs.count) fixes)")
