import Foundation
import GRDB

/// How a typed title is compared with stored ones: without case in every script (`ВРАЧ` is
/// `врач`; SQLite's own LIKE folds ASCII only), without accents (`cafe` is `Café`) and without
/// width (`ｔｅａ` is `tea`, as Japanese input methods often type it).
///
/// ```swift
/// TitleMatch.same("ВРАЧ", "Врач")      // true
/// TitleMatch.fold("Café Ｌｕｎｃｈ")     // "cafe lunch"
/// ```
public enum TitleMatch {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether two titles are the same as a person reads them.
    public static func same(_ a: String, _ b: String) -> Bool { fold(a) == fold(b) }

    /// `chime_fold(text)` in SQL: the store's title search folds stored titles with it.
    static let sqlName = "chime_fold"
    static let sqlFunction = DatabaseFunction(sqlName, argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(fold)
    }
}
