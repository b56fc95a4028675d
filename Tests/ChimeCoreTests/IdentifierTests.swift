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
}
