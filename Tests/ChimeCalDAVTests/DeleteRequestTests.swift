@testable import ChimeCalDAV
import Foundation
import Testing

/// A DELETE never goes out without `If-Match` (RFC 7232 §3.1): on the ETag Chime knows, else on
/// the member's current one fetched first, and then only when its copy is still the one Chime
/// last saw; otherwise it is not sent.
@Suite struct DeleteRequestTests {
    static let known = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"

    @Test func aKnownETagConditionsTheDelete() {
        #expect(CalDAVServer.deleteStep(knownETag: "\"e1\"") == .send(headers: ["If-Match": "\"e1\""]))
    }

    @Test func withoutAKnownETagNothingIsSentBeforeFetchingIt() {
        #expect(CalDAVServer.deleteStep(knownETag: nil) == .fetchETag)
    }

    @Test func theFetchedETagConditionsTheDeleteWhenTheCopyIsTheKnownOne() {
        #expect(CalDAVServer.deleteStep(fetched: ("\"e2\"", Self.known), knownCopy: Self.known) == .send(headers: ["If-Match": "\"e2\""]))
    }

    @Test func aMemberThatIsGoneIsNotDeletedAgain() {
        #expect(CalDAVServer.deleteStep(fetched: nil, knownCopy: Self.known) == .gone)
    }

    @Test func noETagEvenWhenFetchedOrAChangedCopyIsNotSent() {
        guard case .skip(let why) = CalDAVServer.deleteStep(fetched: (nil, Self.known), knownCopy: Self.known) else {
            Issue.record("sent without an ETag"); return
        }
        #expect(why.contains("no ETag"))
        let changed = Self.known.replacingOccurrences(of: "Milk", with: "Oat milk")
        guard case .skip(let reason) = CalDAVServer.deleteStep(fetched: ("\"e3\"", changed), knownCopy: Self.known) else {
            Issue.record("a copy changed there was deleted"); return
        }
        #expect(reason.contains("changed on the server"))
        // Nothing known to compare with: not sent either.
        #expect(CalDAVServer.deleteStep(fetched: ("\"e3\"", Self.known), knownCopy: nil) != .send(headers: ["If-Match": "\"e3\""]))
    }

    /// Every DELETE the steps can send carries If-Match.
    @Test func noStepSendsADeleteWithoutIfMatch() {
        let steps: [CalDAVServer.DeleteStep] = [
            CalDAVServer.deleteStep(knownETag: nil), CalDAVServer.deleteStep(knownETag: "\"x\""),
            CalDAVServer.deleteStep(fetched: nil, knownCopy: nil), CalDAVServer.deleteStep(fetched: (nil, "a"), knownCopy: "a"),
            CalDAVServer.deleteStep(fetched: ("\"y\"", "a"), knownCopy: "a"), CalDAVServer.deleteStep(fetched: ("\"y\"", "a"), knownCopy: "b")
        ]
        for case .send(let headers) in steps { #expect(headers["If-Match"]?.isEmpty == false) }
    }
}
