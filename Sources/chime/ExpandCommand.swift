import ArgumentParser
import ChimeCore
import ChimeFormat
import Foundation

struct ExpandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand",
        abstract: "List the occurrences of a recurrence set (DTSTART + RRULEs + RDATEs - EXDATEs).",
        discussion: """
            Occurrences are computed on DTSTART's wall clock (RFC 5545) and printed in order, \
            each with its local time, UTC offset and UTC instant. A wall time that falls in a \
            daylight-saving gap is moved forward by the gap (02:30 -> 03:30); one that occurs \
            twice takes the first.

            Dates accept ISO 8601 (2026-03-08, 2026-03-08T09:00, 2026-03-08T09:00:00Z, \
            2026-03-08T09:00+01:00) and the RFC 5545 basic form (20260308, 20260308T090000, \
            20260308T090000Z). A date without a time as --dtstart makes an all-day set.

            Examples:
              chime expand --dtstart 1997-09-05T09:00 --tz America/New_York \\
                --rrule 'FREQ=MONTHLY;BYDAY=-1FR' --count 10
              chime expand --dtstart 2026-01-01 --rrule 'FREQ=WEEKLY;BYDAY=MO,WE' \\
                --from 2026-03-01 --to 2026-04-01
              chime expand --dtstart 20260105T090000 --tz Europe/Berlin \\
                --rrule FREQ=DAILY --exdate 20260106T090000 --count 3 --json

            Batch form: one JSON object per stdin line, one JSON line per answer, in order.
              echo '{"id":"a","dtstart":"20260101","rrule":"FREQ=DAILY;COUNT=3"}' |
                chime expand --batch
            Input fields: id; dtstart (20260105T090000 or 2026-01-05T09:00; a date alone for all-day); tzid (UTC, floating or an \
            IANA name; floating is converted as if UTC); rrule (may be empty); exdate and rdate \
            (arrays in dtstart's form); limit ({"count": N} and/or {"until_utc": \
            "YYYYMMDDTHHMMSSZ"}, applied to the final list). Output: {"id","local":[...],"utc":[...]} \
            or {"id","error"}. A bad line never stops the batch; exit status 0 once stdin is read.
            """
    )

    @Option(help: ArgumentHelp("DTSTART: the first occurrence; the rule's time of day and other defaults come from it.", valueName: "date"))
    var dtstart: String?

    @Option(
        help: ArgumentHelp(
            "Time zone of DTSTART and of wall times given without zone: an IANA name, UTC, or floating. Default: the system zone, as floating.",
            valueName: "zone"))
    var tz: String?

    @Option(name: .customLong("rrule"), help: ArgumentHelp("An RRULE, e.g. 'FREQ=WEEKLY;BYDAY=MO,FR'. Repeat for several rules.", valueName: "rule"))
    var rrules: [String] = []

    @Option(name: .customLong("rdate"), help: ArgumentHelp("An extra occurrence (RDATE). Repeat, or separate with commas.", valueName: "date"))
    var rdates: [String] = []

    @Option(
        name: .customLong("exdate"),
        help: ArgumentHelp("An excluded occurrence (EXDATE); a date alone excludes that whole day. Repeat, or separate with commas.", valueName: "date"))
    var exdates: [String] = []

    @Option(help: ArgumentHelp("Show at most N occurrences (default 10 when neither --to nor --until is given).", valueName: "N"))
    var count: Int?

    @Option(help: ArgumentHelp("Show occurrences at or after this date.", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Show occurrences before this date (exclusive).", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("Show occurrences up to and including this date.", valueName: "date"))
    var until: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(help: "Read JSON lines on stdin and answer each on stdout (see above).")
    var batch = false

    func validate() throws {
        if batch {
            let humanOptions =
                dtstart != nil || tz != nil || !rrules.isEmpty || !rdates.isEmpty || !exdates.isEmpty
                || count != nil || from != nil || to != nil || until != nil || json
            if humanOptions { throw ValidationError(CLIContext.messages("--batch reads everything from stdin; it takes no other option")) }
            return
        }
        guard dtstart != nil else { throw ValidationError(CLIContext.messages("--dtstart is required (or use --batch)")) }
        if let count { try OptionBounds.check("--count", count, ValueBounds.count) }
    }

    func run() throws {
        if batch {
            BatchExpansion.run()
            return
        }
        let request = try ExpandRequest(self)
        let result = request.expand()
        print(json ? result.json() : result.table(), terminator: "")
    }
}
