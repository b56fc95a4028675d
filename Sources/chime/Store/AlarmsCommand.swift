import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeScheduler
import ChimeStore

struct AlarmsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarms",
        abstract: "Preview the alarms that will fire in a window, sorted by fire time.",
        discussion: """
            The same computation the daemon runs: absolute alarms at their date, relative alarms \
            at each occurrence's start (or end) plus the offset, reminders at their due time (or \
            their own alarms' times); alarms of all-day items count from 09:00 (all_day_time); \
            completed reminders never fire, a recurring reminder only for its current instance; \
            all-day and floating times on the system zone's clock ($TZ). Each line shows the fire \
            time (local and UTC), the item's title and reference, the occurrence, the alarm, and \
            its state in the daemon's ledger when it is no longer just scheduled (delivered, \
            snoozed, dismissed, missed), or acknowledged when another device or client answered \
            it (ACKNOWLEDGED, X-MOZ-LASTACK): it will not ring. Alarms of cancelled events and of \
            invitations you declined never ring and are left out; --all lists them too, with the \
            reason (cancelled, declined, delegated, not accepted). Location alarms are listed after, \
            as armed: they fire when you cross their geofence, not at a time.

            \(CLIContext.dateHelp)

            Examples:
              chime alarms                        # the next 24 hours
              chime alarms --hours 168            # the next week
              chime alarms --from 2026-12-01 --to 2026-12-02 --json
              chime alarms --all                  # with the declined and cancelled, marked
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var colorOption: ColorOption
    @OptionGroup var bus: ViaBusOption

    @Option(parsing: .unconditional, help: ArgumentHelp("Window start (default: now).", valueName: "date"))
    var from: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Window end, inclusive.", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("Window length in hours, when --to is not given.", valueName: "n"))
    var hours: Int = 24

    @Flag(help: "Also list the alarms that will not ring because the event is cancelled or you declined it, with the reason.")
    var all = false

    func validate() throws {
        if to != nil && hours != 24 {
            throw ArgumentParser.ValidationError(CLIContext.messages("use either {first} or {second}, not both", ["first": "--to", "second": "--hours"]))
        }
        try OptionBounds.check("--hours", hours, ValueBounds.hours)
    }

    func run() throws {
        colorOption.apply()
        let zone = CLIContext.zone
        let start = try from.map { try CLIContext.instant($0, option: "--from") } ?? CLIContext.now
        let end = try to.map { try CLIContext.instant($0, option: "--to") } ?? start.adding(Int64(hours) * 3600)
        guard end > start else { throw InputError(translatable: "the window is empty: --to must be after --from") }
        if bus.viaBus {
            guard from == nil && to == nil else { throw InputError(translatable: "--via-bus lists from now: give --hours, not --from/--to") }
            guard !all else { throw InputError(translatable: "--all does not go with --via-bus (the service lists the alarms that ring)") }
            let hours = UInt32(self.hours)
            return try bus.run(needing: nil) { try await $0.upcomingAlarms(hours: hours) }
        }
        let store = try options.open()
        let listing = try AlarmListing(
            store, zone: zone, from: start, to: end, defaults: AlarmEcho.defaults(for: store),
            includesSilenced: all)
        let (firings, states, armed) = (listing.firings, listing.states, listing.armed)
        // Snoozed notifications come back within the window: they fire again, so they are listed.
        let snoozed = try store.ledger.entries(state: .snoozed)
            .filter { ($0.snoozedUntil.map { $0 >= start && $0 <= end }) ?? false }
        var out = OutputBuffer()
        let writer = AlarmsWriter(zone: zone, messages: CLIContext.messages)
        if options.json {
            writer.json(firings, states: states, armed: armed, to: &out)
        } else {
            writer.text(firings, states: states, armed: armed, snoozed: snoozed, from: start, to: end, into: &out)
        }
        out.flush()
    }
}
