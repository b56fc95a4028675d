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

    /// The word of `vocabulary` closest to `word`, when it is close enough to be a slip (at most
    /// 2 edits, or a third of the word's length).
    public static func closest(to word: String, in vocabulary: [String]) -> String? {
        var best: (word: String, distance: Int)?
        for candidate in vocabulary {
            let d = between(word, candidate)
            if d > 0, d <= max(2, word.count / 3), d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.word
    }
}
