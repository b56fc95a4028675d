/// How far apart two words are, for "did you mean …?": Levenshtein distance, with a swap of two
/// neighbours counting once (`agnda`, `tomorow`).
///
/// ```swift
/// EditDistance.between("tomorow", "tomorrow")   // 1
/// ```
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
    }

    /// How many edits a slip in `word` may have: one in a word of up to four letters (`blue` is
    /// not `jue`), else two or a third of its length.
    static func allowedEdits(_ word: String) -> Int { word.count <= 4 ? 1 : max(2, word.count / 3) }

    /// The word of `vocabulary` closest to `word`, when it is close enough to be a slip
    /// (``allowedEdits(_:)``).
    public static func closest(to word: String, in vocabulary: [String]) -> String? {
        closest(to: word, in: vocabulary) { _ in true }
    }

    /// The same, among the words `fits` accepts (of several equally close, the first that makes
    /// the whole text read: `кажды понедельник` → `каждый`, not `каждые`).
    ///
    /// ```swift
    /// EditDistance.closest(to: "kazhdy", in: ["kazhdye", "kazhdyj"]) { $0 == "kazhdyj" }   // "kazhdyj"
    /// ```
    public static func closest(to word: String, in vocabulary: [String], where fits: (String) -> Bool) -> String? {
        var best: (word: String, distance: Int, fits: Bool)?
        for candidate in vocabulary {
            let d = between(word, candidate)
            guard d > 0, d <= allowedEdits(word) else { continue }
            if let b = best, d > b.distance || (d == b.distance && (b.fits || !fits(candidate))) { continue }
            best = (candidate, d, fits(candidate))
        }
        return best?.word
    }
}
