import ChimeCalDAV
import Foundation
import Testing

/// The multistatus reader on answers as real servers write them (shapes recorded from Radicale
/// 3.1.8 and Xandikos 0.4.10): namespaces by URI, not prefix; the token first or last.
@Suite struct MultiStatusTests {
    @Test func radicaleSyncAnswerWithADeletionAndTheTokenFirst() throws {
        let xml = """
            <?xml version='1.0' encoding='utf-8'?>
            <multistatus xmlns="DAV:"><sync-token>http://radicale.org/ns/sync/018c51</sync-token>
            <response><href>/alice/work/a.ics</href><propstat><prop><getetag>"e1"</getetag></prop><status>HTTP/1.1 200 OK</status></propstat></response>
            <response><href>/alice/work/b.ics</href><status>HTTP/1.1 404 Not Found</status></response></multistatus>
            """
        let m = try MultiStatus.parse(Data(xml.utf8))
        #expect(m.syncToken == "http://radicale.org/ns/sync/018c51")
        #expect(m.responses.map(\.href) == ["/alice/work/a.ics", "/alice/work/b.ics"])
        #expect(m.responses[0].properties["{DAV:}getetag"] == "\"e1\"")
        #expect(m.responses[0].status == nil)
        #expect(m.responses[1].status == 404)
    }

    @Test func xandikosPrefixesTheTokenLastAndAnEncodedHref() throws {
        let xml = """
            <ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>/alice/calendars/x/weird%20name@x%2B1.ics</ns0:href>
            <ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:getetag>"9f"</ns0:getetag></ns0:prop></ns0:propstat>
            </ns0:response><ns0:sync-token>be1d77</ns0:sync-token></ns0:multistatus>
            """
        let m = try MultiStatus.parse(Data(xml.utf8))
        #expect(m.syncToken == "be1d77")
        #expect(m.responses.first?.href == "/alice/calendars/x/weird name@x+1.ics")
        #expect(m.responses.first?.properties["{DAV:}getetag"] == "\"9f\"")
    }

    /// Cyrus (as Fastmail runs it) lists the calendars it expands (RFC 7529 §5.2.1).
    @Test func supportedRScaleSetIsListedCommaSeparated() throws {
        let xml = """
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:response><D:href>/dav/calendars/user/a/Default/</D:href>
            <D:propstat><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
            <C:supported-rscale-set><C:supported-rscale>gregorian</C:supported-rscale><C:supported-rscale> chinese </C:supported-rscale>
            <C:supported-rscale>hebrew</C:supported-rscale></C:supported-rscale-set></D:prop>
            <D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/dav/calendars/user/a/Other/</D:href><D:propstat><D:prop><C:supported-rscale-set/></D:prop>
            <D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>
            """
        let m = try MultiStatus.parse(Data(xml.utf8))
        #expect(m.responses[0].properties["{urn:ietf:params:xml:ns:caldav}supported-rscale-set"] == "gregorian,chinese,hebrew")
        #expect(m.responses[1].properties["{urn:ietf:params:xml:ns:caldav}supported-rscale-set"] == "")
    }

    @Test func collectionListingWithComponentSetsHomeHrefsAndA404Propstat() throws {
        let xml = """
            <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/">
            <response><href>/alice/tasks/</href>
              <propstat><prop><resourcetype><collection/><C:calendar/></resourcetype><displayname>Reminders</displayname>
                <C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>
                <CS:getctag>"c1"</CS:getctag><C:calendar-home-set><href>/alice/</href></C:calendar-home-set></prop>
                <status>HTTP/1.1 200 OK</status></propstat>
              <propstat><prop><displayname>ignored</displayname><CS:getctag/></prop><status>HTTP/1.1 404 Not Found</status></propstat>
            </response></multistatus>
            """
        let r = try #require(try MultiStatus.parse(Data(xml.utf8)).responses.first)
        #expect(r.resourceTypes == ["{DAV:}collection", "{urn:ietf:params:xml:ns:caldav}calendar"])
        #expect(r.properties["{DAV:}displayname"] == "Reminders")
        #expect(r.properties["{urn:ietf:params:xml:ns:caldav}supported-calendar-component-set"] == "VTODO")
        #expect(r.properties["{http://calendarserver.org/ns/}getctag"] == "\"c1\"")
        #expect(r.properties["{urn:ietf:params:xml:ns:caldav}calendar-home-set"] == "/alice/")
    }

    @Test func calendarDataKeepsItsLineBreaksAndEscapes() throws {
        let ics = "BEGIN:VCALENDAR\r\nSUMMARY:a &amp; b\r\n folded\r\nEND:VCALENDAR\r\n"
        let xml =
            "<multistatus xmlns=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><response><href>/a/x.ics</href><propstat><prop><C:calendar-data>\(ics)</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"
        let data = try #require(try MultiStatus.parse(Data(xml.utf8)).responses.first?.properties["{urn:ietf:params:xml:ns:caldav}calendar-data"])
        #expect(data.contains("SUMMARY:a & b"))
        #expect(data.contains("\n folded"))
    }

    @Test func anAnswerThatIsNotXMLIsRefusedWithAReason() {
        #expect(throws: MultiStatusError.self) { try MultiStatus.parse(Data("502 Bad Gateway".utf8)) }
    }

    /// A garbled or cut-off answer was once read as an empty one ("in step, nothing to move"): the
    /// parser used then said a document cut off mid-element parsed. Such an answer is an error, and
    /// a cut one is called cut off.
    @Test func aCutOffOrForeignAnswerIsAnError() {
        for (body, why) in [
            (#"<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>/x</"#, "cut off"),
            (#"<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>/x</href>"#, "cut off"),
            (#"<?xml version="1.0"?><error xmlns="DAV:"><valid-sync-token/></error>"#, "not DAV: multistatus"),
            ("", "no XML element")
        ] {
            do {
                let parsed = try MultiStatus.parse(Data(body.utf8))
                Issue.record("\(body) parsed: \(parsed.responses.count) responses")
            } catch {
                #expect(error.reason.contains(why) || why == "no XML element", "\(body): \(error.reason)")
            }
        }
        #expect((try? MultiStatus.parse(Data(#"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"/>"#.utf8))) != nil)
    }

    /// Read as a stream (as answers are, while they arrive), the reader finds what it finds in
    /// the whole body, and refuses what it refuses there.
    @Test func aStreamReadsAsTheWholeBodyDoes() throws {
        let ics = "BEGIN:VCALENDAR\r\nSUMMARY:a &amp; b\r\nEND:VCALENDAR\r\n"
        let xml =
            "<multistatus xmlns=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><sync-token>t1</sync-token>"
            + (0..<300).map {
                "<response><href> /a/x\($0).ics\n</href><propstat><prop><getetag>\"\($0)\"</getetag><C:calendar-data>\(ics)</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
            }.joined()
            + "</multistatus>"
        let whole = try MultiStatus.parse(Data(xml.utf8))
        let streamed = try MultiStatus.parse(stream: InputStream(data: Data(xml.utf8)))
        #expect(streamed.responses.count == 300 && streamed.syncToken == "t1")
        #expect(streamed.responses.map(\.href) == whole.responses.map(\.href))
        #expect(streamed.responses.map(\.properties) == whole.responses.map(\.properties))
        #expect(streamed.responses[7].href == "/a/x7.ics", "white space around an href is not part of it")
        #expect(streamed.responses[7].properties["{urn:ietf:params:xml:ns:caldav}calendar-data"]?.contains("SUMMARY:a & b") == true)
        for cut in [#"<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>/x</"#, "502 Bad Gateway", ""] {
            #expect(throws: MultiStatusError.self, "\(cut)") { try MultiStatus.parse(stream: InputStream(data: Data(cut.utf8))) }
        }
    }

    /// Entities are not a way in: an external one is not read (a file's text never reaches the
    /// answer), and nested ones do not grow a small answer into gigabytes.
    @Test func entitiesNeitherReadFilesNorExplode() throws {
        let external =
            #"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#
            + #"<multistatus xmlns="DAV:"><response><href>/a/&x;.ics</href></response></multistatus>"#
        let laughs =
            #"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">"#
            + (1...9).map { #"<!ENTITY \#(Character(UnicodeScalar(97 + $0)!)) "\#(String(repeating: "&\(Character(UnicodeScalar(96 + $0)!));", count: 10))">"# }
            .joined()
            + #"]><multistatus xmlns="DAV:"><response><href>/a/&j;.ics</href></response></multistatus>"#
        for (name, xml) in [("external", external), ("nested", laughs)] {
            for parse in [{ try MultiStatus.parse(Data(xml.utf8)) }, { try MultiStatus.parse(stream: InputStream(data: Data(xml.utf8))) }] {
                if let answer = try? parse() {
                    let href = answer.responses.first?.href ?? ""
                    #expect(!href.contains("root:"), "\(name): a file was read")
                    #expect(href.utf8.count < 1_000_000, "\(name): an href of \(href.utf8.count) bytes")
                }
            }
        }
    }
}
