import ChimeCore
import Testing

/// "Did you mean …?": how far a slip is from the word meant, and which word is offered.
@Suite struct EditDistanceTests {
    @Test func aSwapOfNeighboursCountsOnce() {
        #expect(EditDistance.between("tomorow", "tomorrow") == 1)
        #expect(EditDistance.between("agnda", "agenda") == 1)
        #expect(EditDistance.between("wekly", "weekly") == 1)
        #expect(EditDistance.between("freitag", "freitag") == 0)
    }

    @Test func onlyANearWordIsOffered() {
        #expect(EditDistance.closest(to: "wöchentlch", in: ["wöchentlich", "täglich"]) == "wöchentlich")
        #expect(EditDistance.closest(to: "banana", in: ["wöchentlich", "täglich"]) == nil)
        #expect(EditDistance.closest(to: "weekly", in: ["weekly"]) == nil, "the word itself is no slip")
    }

    /// Of two words equally near, the one that makes the whole text read is offered, wherever it
    /// stands in the list; a nearer word still wins.
    @Test func ofEquallyNearWordsTheOneThatFitsIsOffered() {
        let fits: (String) -> Bool = { $0 == "каждый" }
        #expect(EditDistance.closest(to: "кажды", in: ["каждые", "каждый"], where: fits) == "каждый")
        #expect(EditDistance.closest(to: "кажды", in: ["каждый", "каждые"], where: fits) == "каждый")
        #expect(EditDistance.closest(to: "кажды", in: ["каждые", "каждую"]) == "каждые")
        #expect(EditDistance.closest(to: "кажды", in: ["каждый", "кажды1"], where: { $0 == "кажды1" }) == "кажды1")
    }
}
