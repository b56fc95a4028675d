import ChimeCore
import ChimeTestSupport
import Testing

@Suite("Geofence engine: crossings, hysteresis, accuracy, dwell, initial state")
struct GeofenceEngineTests {
    /// Runs fixes at these distances (metres north of the office), one every `every` seconds,
    /// and returns the firing transitions as "name to-state" strings.
    func run(
        _ engine: inout GeofenceEngine, _ distances: [Double], every: Int64 = 5, accuracy: Double = 5,
        startingAt start: Int64 = 0
    ) -> [String] {
        var fired: [String] = []
        for (i, d) in distances.enumerated() {
            let step = engine.process(Fences.fix(metres: d, accuracy: accuracy, at: start + Int64(i) * every))
            fired += step.firing.map { "\($0.fence.place.title) \($0.to.rawValue)" }
        }
        return fired
    }

    @Test func firstFixSettlesWithoutFiringThenCrossingsFire() {
        var engine = GeofenceEngine(settings: GeofenceSettings())
        engine.arm(Fences.fence("arrive", .enter))
        engine.arm(Fences.fence("leave", .leave))
        let first = engine.process(Fences.fix(metres: 500, at: 0))
        #expect(first.firing.isEmpty)
        #expect(first.transitions.map(\.to) == [.outside, .outside])
        #expect(engine.status(of: Fences.fence("arrive").key)?.state == .outside)

        #expect(run(&engine, [300, 150, 90, 40], startingAt: 10) == ["arrive inside"])
        #expect(run(&engine, [120, 160, 400], startingAt: 100) == ["leave outside"])
    }

    /// The case: ±30 m of jitter around a 100 m boundary for ten minutes gives exactly one
    /// "arrive", and once the user really leaves, exactly one "leave".
    @Test func jitterAroundTheBoundaryDoesNotFlap() {
        var engine = GeofenceEngine(settings: GeofenceSettings())
        engine.arm(Fences.fence("arrive", radius: 100, .enter))
        engine.arm(Fences.fence("leave", radius: 100, .leave))
        var random = SeededRandom(seed: 7)
        let approach: [Double] = [600, 400, 250, 160]
        let jitter = (0..<120).map { _ in 100 + random.double(in: -30..<30) }  // 70…130 m, one fix per 5 s
        let away: [Double] = [180, 260, 400, 800]
        let fired = run(&engine, approach + jitter + away)
        #expect(fired == ["arrive inside", "leave outside"])
        #expect(jitter.contains { $0 > 125 } && jitter.contains { $0 < 75 })  // the jitter really spans the band
    }

    @Test func inaccurateFixesAreIgnoredAndWidenTheLeaveMargin() {
        var engine = GeofenceEngine(settings: GeofenceSettings())
        engine.arm(Fences.fence("arrive", radius: 100, .enter))
        engine.arm(Fences.fence("leave", radius: 100, .leave))
        _ = engine.process(Fences.fix(metres: 400, at: 0))
        let coarse = engine.process(Fences.fix(metres: 10, accuracy: 800, at: 5))
        #expect(coarse.ignored?.contains("800 m") == true)
        #expect(engine.status(of: Fences.fence("arrive").key)?.state == .outside)
        #expect(run(&engine, [10], startingAt: 10) == ["arrive inside"])
        // 170 m is beyond radius + 50 m margin, but not beyond it plus a 200 m accuracy.
        #expect(run(&engine, [170], accuracy: 200, startingAt: 20).isEmpty)
        #expect(run(&engine, [170], accuracy: 5, startingAt: 30) == ["leave outside"])
    }

    @Test func olderFixesAreIgnored() {
        var engine = GeofenceEngine(settings: GeofenceSettings())
        engine.arm(Fences.fence("arrive", .enter))
        _ = engine.process(Fences.fix(metres: 400, at: 100))
        let stale = engine.process(Fences.fix(metres: 0, at: 50))
        #expect(stale.ignored == "older than the last fix")
        #expect(stale.firing.isEmpty)
    }

    @Test func dwellTimeMustHoldBeforeACrossingCounts() {
        var settings = GeofenceSettings()
        settings.dwellSeconds = 60
        var engine = GeofenceEngine(settings: settings)
        engine.arm(Fences.fence("arrive", .enter, settings: settings))
        _ = engine.process(Fences.fix(metres: 400, at: 0))
        // 30 s inside, then out again: nothing.
        #expect(run(&engine, [50, 50, 50, 50, 50, 50, 300], every: 5, startingAt: 10).isEmpty)
        #expect(engine.status(of: Fences.fence("arrive").key)?.pending == nil)
        // Inside from t=100 on: fires with the first fix at least 60 s later (t=160).
        var firedAt: Int64?
        for t in stride(from: Int64(100), through: 200, by: 10) {
            if let crossing = engine.process(Fences.fix(metres: 50, at: t)).firing.first {
                firedAt = crossing.fix.timestamp.secondsSince1970 - 1_796_112_000
                break
            }
        }
        #expect(firedAt == 160)
    }

    @Test func initialStatePolicyFireFiresOnTheFirstFix() {
        var settings = GeofenceSettings()
        settings.initialState = .fire
        var engine = GeofenceEngine(settings: settings)
        engine.arm(Fences.fence("arrive", .enter))
        engine.arm(Fences.fence("leave", .leave))
        let first = engine.process(Fences.fix(metres: 20, at: 0))
        #expect(first.firing.map(\.fence.place.title) == ["arrive"])  // inside an "arrive" fence
        var other = GeofenceEngine(settings: settings)
        other.arm(Fences.fence("leave", .leave))
        #expect(other.process(Fences.fix(metres: 900, at: 0)).firing.map(\.fence.place.title) == ["leave"])
    }

    /// A restart while inside must not fire "arrive" again: the saved status is armed back. (With
    /// the `fire` policy an unknown fence would fire on that first fix; the saved one does not.)
    @Test func persistedStateSurvivesARestart() {
        var settings = GeofenceSettings()
        settings.initialState = .fire
        var before = GeofenceEngine(settings: settings)
        let fence = Fences.fence("arrive", .enter)
        before.arm(fence)
        #expect(run(&before, [400, 20]) == ["arrive inside"])
        let saved = before.status(of: fence.key)!
        #expect(saved.state == .inside)

        var after = GeofenceEngine(settings: settings)
        after.arm(fence, status: saved)
        #expect(run(&after, [15, 10, 30], startingAt: 100).isEmpty)
        var fresh = GeofenceEngine(settings: settings)
        fresh.arm(fence)
        #expect(run(&fresh, [15], startingAt: 100) == ["arrive inside"])
        // A real leave-and-return after the restart does fire.
        #expect(run(&after, [400, 20], startingAt: 200) == ["arrive inside"])
    }

    @Test func aDwellTimeEndsWithoutANewFix() {
        var settings = GeofenceSettings()
        settings.dwellSeconds = 60
        var engine = GeofenceEngine(settings: settings)
        engine.arm(Fences.fence("arrive", .enter))
        _ = engine.process(Fences.fix(metres: 400, at: 0))
        _ = engine.process(Fences.fix(metres: 30, at: 10))
        #expect(engine.nextDwellDeadline == Instant(secondsSince1970: 1_796_112_070))
        #expect(engine.reevaluate(at: Instant(secondsSince1970: 1_796_112_000 + 69)).firing.isEmpty)
        #expect(engine.reevaluate(at: Instant(secondsSince1970: 1_796_112_000 + 70)).firing.map(\.fence.place.title) == ["arrive"])
        #expect(engine.nextDwellDeadline == nil)
    }

    /// Hostile positions: never a crash, always a reason.
    @Test func invalidPositionsAreRefusedWithAReason() {
        var engine = GeofenceEngine(settings: GeofenceSettings())
        engine.arm(Fences.fence("arrive", .enter))
        let nan = LocationFix(coordinate: Coordinate(latitude: .nan, longitude: 1e300), horizontalAccuracy: 5, timestampMilliseconds: 0)
        #expect(engine.process(nan).ignored?.hasPrefix("invalid coordinates") == true)
        let huge = LocationFix(coordinate: Fences.office, horizontalAccuracy: 1e20, timestampMilliseconds: 0)
        #expect(engine.process(huge).ignored == "accuracy 1e+20 m is worse than the 250 m limit")
        let unknown = LocationFix(coordinate: Fences.office, horizontalAccuracy: -1, timestampMilliseconds: 0)
        #expect(engine.process(unknown).ignored == "unknown accuracy")
        #expect(engine.lastSeen == unknown)  // still where the tracking looks from
    }

    /// Near the poles and across the antimeridian the grid's rings do not work; every fence is
    /// looked at instead — correct, and it terminates.
    @Test(arguments: [
        Coordinate(latitude: 89.9, longitude: 10), Coordinate(latitude: -85, longitude: 0),
        Coordinate(latitude: 10, longitude: 179.99), Coordinate(latitude: 60, longitude: -179.95)
    ])
    func nearestBoundaryAtThePolesAndTheAntimeridian(point: Coordinate) {
        var random = SeededRandom(seed: 3)
        var engine = GeofenceEngine(settings: GeofenceSettings())
        var fences: [Geofence] = []
        for i in 0..<300 {
            let center = Fences.point(point, north: random.double(in: -30_000..<30_000), east: random.double(in: -30_000..<30_000))
            let valid = Coordinate(
                latitude: max(-90, min(90, center.latitude)),
                longitude: center.longitude > 180 ? center.longitude - 360 : (center.longitude < -180 ? center.longitude + 360 : center.longitude))
            let fence = Fences.fence("p\(i)", at: valid, radius: random.double(in: 50..<500), .enter)
            fences.append(fence)
            engine.arm(fence)
        }
        let expected = fences.map { abs(Geodesy.distance($0.center, point) - $0.radius) }.filter { $0 <= 10_000 }.min()
        let found = engine.nearestBoundaryDistance(from: point, limit: 10_000)
        #expect(found.map { a in expected.map { abs(a - $0) < 1e-6 } ?? false } ?? (expected == nil))
        // Crossing detection there too.
        _ = engine.process(LocationFix(coordinate: point, horizontalAccuracy: 5, timestampMilliseconds: 0))
        let inside = Set(fences.filter { engine.status(of: $0.key)?.state == .inside }.map(\.key))
        #expect(inside == Set(fences.filter { Geodesy.distance($0.center, point) <= $0.radius }.map(\.key)))
    }

    @Test func zeroRadiusMeansTheDefaultAndSmallRadiiAreRaised() {
        var settings = GeofenceSettings()
        settings.defaultRadius = 150
        settings.minimumRadius = 50
        #expect(settings.effectiveRadius(0) == 150)
        #expect(settings.effectiveRadius(10) == 50)
        #expect(settings.effectiveRadius(400) == 400)
        var engine = GeofenceEngine(settings: settings)
        engine.arm(Fences.fence("default", radius: 0, .enter, settings: settings))
        // 140 m is inside a 150 m default fence.
        #expect(run(&engine, [400, 140]) == ["default inside"])
    }

    @Test func disarmedFencesNeverFire() {
        var engine = GeofenceEngine(settings: GeofenceSettings())
        let fence = Fences.fence("arrive", .enter)
        engine.arm(fence)
        _ = engine.process(Fences.fix(metres: 400, at: 0))
        engine.disarm(fence.key)
        #expect(engine.count == 0)
        #expect(run(&engine, [10], startingAt: 10).isEmpty)
    }

    /// The grid index against brute force: same inside set, same nearest boundary.
    @Test func spatialIndexAgreesWithBruteForce() {
        var random = SeededRandom(seed: 42)
        var engine = GeofenceEngine(settings: GeofenceSettings())
        var fences: [Geofence] = []
        for i in 0..<3_000 {
            let center = Fences.point(north: random.double(in: -10_000..<10_000), east: random.double(in: -10_000..<10_000))
            let radius = i % 100 == 0 ? 40_000 : random.double(in: 50..<950)  // a few huge ones (the large list)
            let fence = Fences.fence("f\(i)", at: center, radius: radius, .enter)
            fences.append(fence)
            engine.arm(fence)
        }
        // The reference: every fence checked on every fix, with the same enter/leave thresholds.
        var reference: [FiringKey: FenceState] = [:]
        let settings = GeofenceSettings()
        for t in 0..<200 {
            let p = Fences.point(north: random.double(in: -12_000..<12_000), east: random.double(in: -12_000..<12_000))
            _ = engine.process(Fences.fix(p, accuracy: 5, at: Int64(t)))
            for fence in fences {
                let d = Geodesy.distance(fence.center, p)
                if d <= fence.radius {
                    reference[fence.key] = .inside
                } else if reference[fence.key] == nil || d > fence.radius + settings.leaveMargin(radius: fence.radius, accuracy: 5) {
                    reference[fence.key] = .outside
                }
            }
            let insideByEngine = Set(fences.filter { engine.status(of: $0.key)?.state == .inside }.map(\.key))
            let insideByReference = Set(reference.filter { $0.value == .inside }.keys)
            #expect(insideByEngine == insideByReference, "fix \(t)")
            let nearest = fences.map { abs(Geodesy.distance($0.center, p) - $0.radius) }.min()!
            let found = engine.nearestBoundaryDistance(from: p, limit: 10_000)
            #expect(found.map { abs($0 - nearest) < 1e-6 } ?? (nearest > 10_000), "fix \(t)")
        }
    }
}
