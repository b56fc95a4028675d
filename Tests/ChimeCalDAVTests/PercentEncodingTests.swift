import Foundation
import Testing

@testable import ChimeCalDAV

/// The byte-level percent coding of hrefs makes what Foundation's made (the reference it replaced
/// for speed): the same strings, and nil for the same malformed ones.
@Suite struct PercentEncodingTests {
    static let samples: [String] = {
        let ascii = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        return ascii + [
            "", "/alice/events/8f3c1a2e-0b7d-4e61-9a52-1f0c2d3e4f5a.ics", "/cal/a b#1?.ics", "/cal/100%.ics",
            "/cal/Geburtstag Müller.ics", "/日历/生日.ics", "/cal/😀 party.ics", "/cal/[1]{2}|3^`\\\"<>.ics"
        ]
    }()

    @Test func encodingAPathMatchesFoundation() {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "%")
        for path in Self.samples {
            #expect(PercentEncoding.encodedPath(path) == path.addingPercentEncoding(withAllowedCharacters: allowed), "\(path)")
        }
    }

    @Test func decodingMatchesFoundationAndRefusesWhatItRefuses() {
        let encoded = Self.samples.map { PercentEncoding.encodedPath($0) }
        let malformed = ["%", "%4", "%G1", "/a%2", "%zz.ics", "%C3%28", "%FF", "%e6%97%a5%E5%8E%86", "a%20b%2Fc"]
        for text in Self.samples + encoded + malformed {
            #expect(PercentEncoding.decoded(text) == text.removingPercentEncoding, "\(text)")
        }
        #expect(PercentEncoding.decoded("%C3%28") == nil, "not UTF-8")
        #expect(PercentEncoding.decoded("/cal/a%20b.ics") == "/cal/a b.ics")
    }

    @Test func xmlEscapingOfHrefsAndNames() {
        #expect(CalDAVServer.escape("a&b<c>d \"é\"") == "a&amp;b&lt;c&gt;d \"é\"")
        #expect(CalDAVServer.escape("/cal/x.ics") == "/cal/x.ics")
    }
}
