import Foundation
import ChimeTestKit
import Testing

@Suite("chime expand --batch: the JSON-lines contract")
struct ExpandBatchContractTests {
    func batch(_ lines: [String]) throws -> [[String: Any]] {
        let r = try CLI.run(["expand", "--batch"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(r.status == 0)
        let out = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(out.count == lines.count, "one output line per input line")
        return try out.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    @Test func answersInOrderAndABadLineDoesNotStopTheBatch() throws {
        let out = try batch([
            #"{"id":"a","dtstart":"19970902T090000","tzid":"America/New_York","rrule":"FREQ=DAILY;COUNT=2"}"#,
            #"not json"#,
            #"{"id":"c","dtstart":"20260101T090000","tzid":"Europe/Berlin","rrule":"FREQ=MONTHLY;BYMONTHDAY=32"}"#,
            #"{"id":"d","dtstart":"20261301T090000","tzid":"UTC","rrule":"FREQ=DAILY"}"#,
            #"{"id":"e","dtstart":"20260101T090000","tzid":"Nowhere/City","rrule":"FREQ=DAILY"}"#,
            #"{"id":"f","dtstart":"20260101T090000","tzid":"UTC","rrule":"FREQ=DAILY","limit":{"count":1}}"#
        ])
        #expect(out[0]["id"] as? String == "a")
        #expect(out[0]["local"] as? [String] == ["19970902T090000", "19970903T090000"])
        #expect(out[0]["utc"] as? [String] == ["19970902T130000Z", "19970903T130000Z"])
        #expect(out[1]["error"] as? String == "not valid JSON")
        #expect(out[2]["id"] as? String == "c")
        #expect(out[2]["error"] as? String == "rrule: BYMONTHDAY=32: values must be -31…-1 or 1…31")
        #expect((out[3]["error"] as? String)?.hasPrefix("dtstart: invalid date or date-time \"20261301T090000\"") == true)
        #expect((out[4]["error"] as? String)?.contains("unknown time zone \"Nowhere/City\"") == true)
        #expect(out[5]["utc"] as? [String] == ["20260101T090000Z"])
    }

    @Test func gapTimesShowTheirRealWallClock() throws {
        let out = try batch([#"{"id":"g","dtstart":"20260307T023000","tzid":"America/New_York","rrule":"FREQ=DAILY","limit":{"count":3}}"#])
        #expect(out[0]["local"] as? [String] == ["20260307T023000", "20260308T033000", "20260309T023000"])
        #expect(out[0]["utc"] as? [String] == ["20260307T073000Z", "20260308T073000Z", "20260309T063000Z"])
    }

    @Test func limitCutsTheFinalListAfterRdateAndExdate() throws {
        // COUNT in the rule counts before EXDATE; the limit cuts the merged list afterwards.
        let line =
            #"{"id":"l","dtstart":"20260101T100000","tzid":"UTC","rrule":"FREQ=DAILY;COUNT=5","#
            + #""exdate":["20260102T100000"],"rdate":["20260101T120000"],"limit":{"count":4,"until_utc":"20260104T100000Z"}}"#
        let out = try batch([line])
        #expect(out[0]["utc"] as? [String] == ["20260101T100000Z", "20260101T120000Z", "20260103T100000Z", "20260104T100000Z"])
    }

    @Test func rdateOnlyAndFloatingAndAllDay() throws {
        let out = try batch([
            #"{"id":"r","dtstart":"20260101T080000","tzid":"floating","rrule":"","rdate":["20260301T080000"]}"#,
            #"{"id":"d","dtstart":"20261224","tzid":"Europe/Berlin","rrule":"FREQ=YEARLY;COUNT=2"}"#
        ])
        #expect(out[0]["local"] as? [String] == ["20260101T080000", "20260301T080000"])
        #expect(out[0]["utc"] as? [String] == ["20260101T080000Z", "20260301T080000Z"])
        #expect(out[1]["local"] as? [String] == ["20261224", "20271224"])
        #expect(out[1]["utc"] as? [String] == ["20261223T230000Z", "20271223T230000Z"])
    }

    @Test func infiniteSetWithoutLimitIsAnErrorNotACut() throws {
        let out = try batch([#"{"id":"i","dtstart":"20260101T000000","tzid":"UTC","rrule":"FREQ=MINUTELY"}"#])
        #expect((out[0]["error"] as? String)?.contains("give limit.count or limit.until_utc") == true)
    }

    @Test func answersEachLineBeforeStdinCloses() throws {
        // A co-process writes a line and waits for the answer: output must be flushed per line.
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["expand", "--batch"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(#"{"id":"x","dtstart":"20260101","tzid":"UTC","rrule":"FREQ=DAILY;COUNT=1"}"#.utf8 + [10]))
        var answer = Data()
        while !answer.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            answer += chunk
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix(#"{"id":"x","local":["20260101"]"#))
    }
}
