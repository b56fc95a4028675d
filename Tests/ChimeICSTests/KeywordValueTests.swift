import Testing

@testable import ChimeICS

/// A keyword value (ACTION:NONE, STATUS:CANCELLED, Apple's placeholder TRIGGER) read on its bytes
/// answers as the strings did: trimmed of spaces and tabs, upper-cased, compared.
@Suite("iCalendar keyword values, read on their bytes")
struct KeywordValueTests {
    @Test func answersAsTheTrimmedUpperCasedValue() {
        let values = [
            "NONE", "none", " NoNe\t", "\t\tNONE  ", "NONEX", "NON", "", " ", "N ONE",
            // Not ASCII: decided by Unicode's case rules, as before (a dotless ı upper-cases to I).
            "emaıl", "EMAİL", "NONE\u{301}", " \u{301}NONE", "ＮＯＮＥ", "EMAIL", "Email ",
            "19760401t005545z", " 19760401T005545Z ", "19760401T005545"
        ]
        for value in values {
            for keyword: StaticString in ["NONE", "EMAIL", "CANCELLED", "19760401T005545Z", "N"] {
                #expect(
                    value.isKeyword(keyword) == (value.trimmingSpaces.asciiUppercased == keyword.description),
                    "\(value.debugDescription) as \(keyword)")
            }
        }
        #expect(" none ".isKeyword("NONE"))
        #expect("emaıl".isKeyword("EMAIL"))
        #expect(!"NONE!".isKeyword("NONE"))
    }
}
