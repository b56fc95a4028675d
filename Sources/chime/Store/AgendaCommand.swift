import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeStore

struct AgendaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agenda",
        abstract: "List event occurrences in a window, sorted by start.",
        discussion: """
            Every occurrence that overlaps the window is listed under each day it covers, on \
            the system zone's clock ($TZ): an event from Monday 09:00 to Wednesday 17:00 shows \
            "09:00 →" on Monday, "all day" on Tuesday and "→ 17:00" on Wednesday. Each line ends \
            with the reference `chime show`, `chime edit` and `chime remove` accept (the ID's \
            first 8 characters; --json gives it whole). A cancelled event is marked \
            "(cancelled)", an invitation you declined "(declined)"; --hide-declined leaves them \
            out (`[agenda] hide_declined = true` in config.toml makes that the default, \
            --no-hide-declined shows them again).

            \(CLIContext.dateHelp)

            Examples:
              chime agenda                # today and the next 6 days
              chime agenda today
              chime agenda --from "dec 1" --days 31 --calendar Work
              chime agenda --days 365 --json > year.json
              chime agenda --hide-declined       # without cancelled and declined meetings
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var colorOption: ColorOption
    @OptionGroup var bus: ViaBusOption

    @Argument(help: ArgumentHelp("today, tomorrow, week (7 days from today, the default) or month.", valueName: "span"))
    var span: SpanWord?

    enum SpanWord: String, ExpressibleByArgument, CaseIterable {
        case today, tomorrow, week, month
    }

    @Option(parsing: .unconditional, help: ArgumentHelp("Window start (default: today at 00:00).", valueName: "date"))
    var from: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Window end, exclusive.", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("Window length in days, when --to is not given (default 7).", valueName: "n"))
    var days: Int?

    @Option(
        name: .customLong("calendar"), help: ArgumentHelp("Only this calendar (name or ID); repeatable.", valueName: "name"),
        completion: .custom(ShellCompletion.calendars))
    var calendars: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help: "Leave out cancelled events and invitations you declined (default: mark them; [agenda] hide_declined in config.toml).")
    var hideDeclined: Bool?

    func validate() throws {
        if to != nil && days != nil {
            throw ArgumentParser.ValidationError(CLIContext.messages("use either {first} or {second}, not both", ["first": "--to", "second": "--days"]))
        }
        if span != nil && (from != nil || to != nil || days != nil) {
            throw ArgumentParser.ValidationError(
                CLIContext.messages("use either {first} or {second}, not both", ["first": span!.rawValue, "second": "--from/--to/--days"]))
        }
        if let days { try OptionBounds.check("--days", days, ValueBounds.days) }
    }

    /// The window: `span`, else --from/--to/--days, else today and the next 6 days.
    func window(now: Instant, zone: ZoneRules) throws -> (start: Instant, end: Instant) {
        let today = zone.localTime(at: now).date
        let midnight = { (d: CivilDate) in zone.instant(for: LocalDateTime(date: d)) }
        switch span {
        case .today?: return (midnight(today), midnight(today.adding(days: 1)))
        case .tomorrow?: return (midnight(today.adding(days: 1)), midnight(today.adding(days: 2)))
        case .week?: return (midnight(today), midnight(today.adding(days: 7)))
        case .month?:
            // The same day next month, or that month's last day (31 Jan → 28 Feb).
            let (y, m) = today.month == 12 ? (today.year + 1, 1) : (today.year, today.month + 1)
            let next = CivilDate(year: y, month: m, day: min(today.day, CivilDate.daysInMonth(year: y, month: m)))
            return (midnight(today), midnight(next))
        case nil: break
        }
        let start = try from.map { try CLIContext.instant($0, option: "--from") } ?? midnight(today)
        let end =
            try to.map { try CLIContext.instant($0, option: "--to") }
            ?? midnight(zone.localTime(at: start).date.adding(days: days ?? 7))
        return (start, end)
    }

    func run() throws {
        colorOption.apply()
        let zone = CLIContext.zone
        let (start, end) = try window(now: CLIContext.now, zone: zone)
        guard end > start else { throw InputError(translatable: "the window is empty: --to must be after --from") }
        if bus.viaBus {
            guard calendars.isEmpty else {
                throw InputError(translatable: "--calendar does not go with --via-bus (the service lists every calendar the app may see)")
            }
            return try bus.run(needing: .event) { try await $0.events(from: start, to: end) }
        }
        let store = try options.open()
        var selected: [ChimeCore.Calendar]?
        if !calendars.isEmpty {
            selected = try calendars.map { name in
                guard let c = try store.calendar(matching: name, for: .event) else {
                    if let short = try CalendarChoice.shortIDPrefix(name, in: store, option: "--calendar") { throw short }
                    throw InputError(translatable: "--calendar: no event calendar \"{name}\" (see `chime calendar list`)", ["name": name])
                }
                return c
            }
        }
        try Self.write(
            store, window: (start, end), calendars: selected, json: options.json,
            hidesDeclined: hideDeclined ?? AlarmEcho.configuration?.agendaHidesDeclined ?? false)
    }

    /// The window's occurrences through ``AgendaWriter`` to stdout, from the light stream: no
    /// Event built per occurrence, no alarm rows read (the agenda shows none). `chime` alone uses
    /// it too, without day headings.
    static func write(
        _ store: EventStore, window: (start: Instant, end: Instant), calendars: [ChimeCore.Calendar]?,
        json: Bool, headings: Bool = true, hidesDeclined: Bool
    ) throws {
        var out = OutputBuffer()
        try AgendaWriter.render(
            store, window: window, calendars: calendars, json: json, headings: headings, color: Style.enabled,
            zone: CLIContext.zone, identity: AlarmEcho.defaults(for: store).identity, hidesDeclined: hidesDeclined,
            messages: CLIContext.messages, into: &out)
        out.flush()
    }
}
