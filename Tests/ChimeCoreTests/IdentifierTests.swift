import ChimeCore
import Foundation
import Testing

/// Item identifiers: random version 4 UUIDs, written as Foundation writes them.
@Suite struct IdentifierTests {
    @Test func anIdentifierIsAVersionFourUUIDAsFoundationWritesIt() throws {
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let id = newIdentifier()
            let uuid = try #require(UUID(uuidString: id), "\(id)")
            #expect(uuid.uuidString == id)
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4, "version: \(id)")
            #expect(bytes[8] >> 6 == 0b10, "variant: \(id)")
            seen.insert(id)
        }
        #expect(seen.count == 2_000)
    }

    @Test func upperCaseOfASCIIKeywords() {
        #expect("vevent".asciiUppercased == "VEVENT")
        #expect("DTSTART".asciiUppercased == "DTSTART")
        #expect("x-wr-calname"[...].asciiUppercased == "X-WR-CALNAME")
        #expect("straße".asciiUppercased == "straße".uppercased())
        #expect("".asciiUppercased == "")
    }

    @Test func asciiSplitsAndPrefixesAreThoseOfTheCharacterForms() {
        // Not ASCII: a Greek question mark is a semicolon to Character, a combining accent joins the one before it.
        for text in ["FREQ=DAILY;;COUNT=3;", ";BYDAY=MO,TU", "", "名前=会議;x=ü", "FREQ=DAILY\u{37E}COUNT=3", "A;\u{301}B;C"] {
            #expect(text.splitASCII(";", omittingEmptySubsequences: false) == text.split(separator: ";", omittingEmptySubsequences: false))
            #expect(text.splitASCII(";") == text.split(separator: ";"))
        }
        #expect("X-CHIME-CALENDAR:Work".hasASCIIPrefix("X-CHIME-CALENDAR:"))
        #expect(!"X-CHIME-CALENDAR".hasASCIIPrefix("X-CHIME-CALENDAR:"))
        #expect("会議:1".hasASCIIPrefix("会議"))
        #expect("".hasASCIIPrefix("") && "a".hasASCIIPrefix(""))
        for (text, prefix) in [("S\u{212A}IP=OMIT", "SKIP="), ("X:\u{301}Work", "X:"), ("X:Wörk", "X:"), ("X:Work", "X:")] {
            #expect(text.hasASCIIPrefix(prefix) == text.hasPrefix(prefix), "\(text)")
            #expect(text.droppingASCIIPrefix(prefix) == (text.hasPrefix(prefix) ? text.dropFirst(prefix.count) : nil), "\(text)")
        }
    }

    /// DURATION values as files write them: either case, a sign, weeks or days and a time; anything
    /// else (no unit, a unit out of place, digits other than ASCII, too many digits) is no duration.
    @Test func durationsReadInEitherCaseAndOnlyWithASCIIDigits() {
        #expect(ISODuration.seconds("-PT15M") == -900)
        #expect(ISODuration.seconds("+p1dt2h") == 93_600)
        #expect(ISODuration.seconds("P2W") == 1_209_600)
        #expect(ISODuration.seconds("PT1H30M5S") == 5_405)
        for bad in ["", "-", "P", "P1", "PT1D", "P1H", "PT١٥M", "PT1234567890S", "15M", "P1W2X"] {
            #expect(ISODuration.seconds(bad) == nil, "\(bad)")
        }
    }
}
