import Foundation

/// Seeds and sizes for the seeded suites, overridable from the environment to explore further:
/// `CHIME_TEST_SEED=12345 CHIME_TEST_SCALE=10 swift test --filter Differential`.
enum TestSeed {
    /// `CHIME_TEST_SEED` when set (decimal or 0x-hex), else the suite's fixed seed.
    static func base(_ fixed: UInt64) -> UInt64 {
        guard let text = ProcessInfo.processInfo.environment["CHIME_TEST_SEED"] else { return fixed }
        return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) ?? fixed : UInt64(text) ?? fixed
    }

    /// `count` times `CHIME_TEST_SCALE` (default 1).
    static func scaled(_ count: Int) -> Int {
        count * max(1, Int(ProcessInfo.processInfo.environment["CHIME_TEST_SCALE"] ?? "") ?? 1)
    }
}
