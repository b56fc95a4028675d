import ArgumentParser
import ChimeCore
import ChimeFormat
import Foundation

/// `chime expand` options turned into a recurrence set and a window, with errors that name the option.
struct ExpandRequest {
    let set: RecurrenceSet
    /// The zone the occurrences are shown in: DTSTART's zone, or for a floating or all-day set the
    /// system's (`TZ`, else `/etc/localtime`, else UTC), which floating times then follow.
    let zone: ZoneRules
    let zoneLabel: String
    let from: Instant
    let to: Instant
    let limit: Int

    static let defaultCount = 10

    init(_ command: ExpandCommand) throws {
        let zoneArgument: ZoneArgument
        do { zoneArgument = try ZoneArgument(command.tz ?? "floating") } catch {
            throw InputError("--tz: \(error)")
        }
        let floatingZone = CLIContext.zone
        guard let startText = command.dtstart else { throw InputError(translatable: "--dtstart is required") }
        let start = try DateArgument.argument(startText, option: "--dtstart")
        let recurrenceStart = zoneArgument.recurrenceStart(start)
        zone = recurrenceStart.zone(floatingZone: floatingZone)
        switch (recurrenceStart, zoneArgument) {
        case (.allDay, _): zoneLabel = "all day"
        case (_, .floating): zoneLabel = "floating, read in \(floatingZone.identifier)"
        default: zoneLabel = zone.identifier
        }

        var rules: [RecurrenceRule] = []
        for (index, text) in command.rrules.enumerated() {
            do { rules.append(try RecurrenceRule(parsing: text)) } catch {
                let which = command.rrules.count > 1 ? " #\(index + 1)" : ""
                throw InputError("--rrule\(which): \(error)")
            }
        }
        set = RecurrenceSet(
            start: recurrenceStart, rules: rules,
            dates: try ExpandRequest.dates(command.rdates, option: "--rdate"),
            exceptionDates: try ExpandRequest.dates(command.exdates, option: "--exdate"))

        let zone = self.zone
        func instant(_ text: String?, _ option: String) throws -> Instant? {
            guard let text else { return nil }
            return try DateArgument.argument(text, option: option).instant(in: zone)
        }
        from = try instant(command.from, "--from") ?? Instant(secondsSince1970: -62_135_596_800)  // 0001-01-01
        var end = try instant(command.to, "--to") ?? Instant(secondsSince1970: 253_402_300_800)  // 10000-01-01
        if let until = try instant(command.until, "--until") {
            end = min(end, Instant(secondsSince1970: until.secondsSince1970 + 1))
        }
        to = end
        if to <= from { throw InputError(translatable: "the window is empty: --to/--until must be after --from") }
        limit = command.count ?? (command.to == nil && command.until == nil ? ExpandRequest.defaultCount : .max)
    }

    private static func dates(_ values: [String], option: String) throws -> [RecurrenceDate] {
        try values.flatMap { $0.split(separator: ",") }.map { item in
            try DateArgument.argument(String(item), option: option).recurrenceDate
        }
    }

    /// The occurrences of the set in the window, at most `limit` of them, with floating times read
    /// in ``zone``.
    func expand() -> ExpandResult {
        let window = set.occurrences(from: from, to: to, limit: limit, floatingZone: zone)
        return ExpandResult(request: self, window: window)
    }
}
