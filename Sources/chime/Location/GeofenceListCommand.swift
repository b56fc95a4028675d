import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeScheduler
import ChimeStore
import Foundation

extension GeofenceCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the armed fences with their state and distance to the last position.",
            discussion: """
                Shows every location alarm that is armed now, with the state the daemon saved for it \
                (inside, outside, or unknown before the first usable position), its distance from \
                the last position the daemon used, and whether it has fired (its alarm ledger entry: \
                delivered, snoozed, dismissed).

                Examples:
                  chime geofence list
                  chime geofence list --json
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var configOption: ConfigOption

        func run() throws {
            let settings = try configOption.load().geofence
            let store = try options.open()
            let now = CLIContext.now
            var fences: [Geofence] = []
            for source in try store.locationAlarmSources(from: now) {
                fences +=
                    GeofenceArming.fences(
                        for: source.item, replaced: source.replaced, at: now, zone: CLIContext.zone,
                        settings: settings
                    ).fences
            }
            fences.sort { ($0.item.title, $0.key) < ($1.item.title, $1.key) }
            let statuses = try store.geofences.statuses()
            let last = try store.geofences.lastFix()
            let fired = try store.ledger.entries(for: fences.map(\.key))
            var out = OutputBuffer()
            let writer = GeofenceWriter(zone: CLIContext.zone, now: now, messages: CLIContext.messages)
            if options.json {
                writer.listJSON(fences, statuses: statuses, fired: fired, last: last, into: &out)
            } else {
                writer.listText(fences, statuses: statuses, fired: fired, last: last, into: &out)
            }
            out.flush()
        }
    }
}
