// Deterministic randomness shared by the property and differential tests and the benchmark
// workload. Nothing here goes through the standard library's `random(in:using:)`, whose
// algorithm is not specified, so a seed gives the same values on every Swift version.

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough for test workloads.
///
/// ```swift
/// var r = SeededRandom(seed: 42)
/// r.int(in: 1...6)      // same value on every run
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range` (multiply-shift; the bias is far below what a test can see).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next().multipliedFullWidth(by: width).high)
    }

    /// Uniform in 0 ..< 1 (53 random bits).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in `range`.
    public mutating func double(in range: Range<Double>) -> Double { range.lowerBound + unit() * (range.upperBound - range.lowerBound) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    public mutating func pick<T>(_ values: [T]) -> T { values[int(in: 0...(values.count - 1))] }

    /// Picks by integer weights: `weighted([(.daily, 20), (.secondly, 1)])`.
    public mutating func weighted<T>(_ choices: [(T, Int)]) -> T {
        var x = int(in: 0...(choices.reduce(0) { $0 + $1.1 } - 1))
        for (value, weight) in choices {
            if x < weight { return value }
            x -= weight
        }
        return choices[choices.count - 1].0
    }

    /// `1…max` distinct values drawn by `draw`, fewer if `draw` keeps repeating itself.
    public mutating func distinct(upTo max: Int, _ draw: (inout SeededRandom) -> Int) -> [Int] {
        var values: [Int] = []
        for _ in 0..<int(in: 1...max) {
            let v = draw(&self)
            if !values.contains(v) { values.append(v) }
        }
        return values
    }
}
