import ChimeDesktop
import Testing

/// What the D-Bus service lets out: error messages cut short on a character boundary, and the
/// size of an answer as checked against the reply limit.
@Suite struct BusLimitsTests {
    @Test func aLongErrorMessageIsCutOnACharacterBoundary() {
        #expect(BusLimits.bounded("short") == "short")
        let echoed = "no item X@" + String(repeating: "日", count: 100_000)
        let cut = BusLimits.bounded(echoed)
        #expect(cut.utf8.count <= BusLimits.errorMessageBytes)
        #expect(cut.hasPrefix("no item X@日") && cut.hasSuffix("…"))
        #expect(!cut.dropLast().contains("\u{FFFD}"))
    }

    @Test func anAnswersSizeCountsItsText() {
        #expect(BusLimits.size(of: [.string(String(repeating: "a", count: 1_000))]) == 1_000)
        #expect(BusLimits.size(of: [.strings(["ab", "c"]), .uint32(1)]) == 2 + 4 + 1 + 4 + 8)
        #expect(BusLimits.size(of: [.string(String(repeating: "x", count: BusLimits.replyBytes + 1))]) > BusLimits.replyBytes)
    }
}
