/// Summary statistics the benchmarks report.
public enum Statistics {
    /// The middle value (mean of the two middle ones for an even count); NaN for none.
    public static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        if s.isEmpty { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Nearest-rank percentile, `p` in 0…100; NaN for none.
    public static func percentile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        if s.isEmpty { return .nan }
        let rank = Int((p / 100 * Double(s.count)).rounded(.up))
        return s[min(s.count - 1, max(0, rank - 1))]
    }
}
