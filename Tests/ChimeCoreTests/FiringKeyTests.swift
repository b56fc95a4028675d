import ChimeCore
import Testing

/// Firing keys leave the daemon as text (`AlarmFired` over D-Bus) and come back to name a firing.
struct FiringKeyTests {
    @Test func aKeyReadsBackAsItWasWritten() {
        let keys = [
            FiringKey(item: "6F1C2A90-0000-4000-8000-000000000001", occurrence: Instant(secondsSince1970: 1_796_112_000), alarm: "-900"),
            FiringKey(item: "x@y", occurrence: Instant(secondsSince1970: 0), alarm: "@1796112000"),
            FiringKey(item: "a", occurrence: Instant(secondsSince1970: 253_402_300_799), alarm: "-900/end")
        ]
        for key in keys { #expect(FiringKey(parsing: key.description) == key, "\(key)") }
    }

    @Test func textThatIsNotAKeyIsRefused() {
        for text in [
            "", "abc", "id@20261301T090000Z#-900", "id@20260230T090000Z#0", "id@20261201T250000Z#0",
            "id@20261201T090000#0", "@20261201T090000Z#0", "id@20261201T090000Z#", "id@2026-12-01T09:00Z#0"
        ] {
            #expect(FiringKey(parsing: text) == nil, "\(text)")
        }
    }
}
