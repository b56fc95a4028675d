import ArgumentParser
import ChimeCore
import ChimeScheduler
import ChimeStore
import Foundation

struct GeofenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geofence",
        abstract: "Preview and inspect location alarms (geofences).",
        discussion: """
            A location alarm fires when you arrive at or leave a place: a circle around a point \
            (radius 0 = the configured default, 150 m). Reminders arm their fences until they are \
            completed; events on the local day of each occurrence. The daemon watches positions \
            from GeoClue2 (or a replayed track) and fires each fence at most once.

            Examples:
              chime add reminder "Buy milk" --at "Grocery store@52.5250,13.4020" --on arrive
              chime geofence simulate --track Examples/commute.gpx --from "mon 7:30"
              chime geofence list
            """,
        subcommands: [Simulate.self, List.self])

    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay a track against the store and print which location alarms would fire.",
            discussion: """
                The location preview: the same engine and rules as the daemon (hysteresis, accuracy \
                limit, dwell time, initial-state policy from the configuration), with fences armed \
                as of each position's time and starting from unknown states. Nothing is stored and \
                nothing is shown on the desktop.

                Tracks: GPX (trkpt with time), NMEA 0183 (GGA/RMC) or CSV (time,lat,lon[,accuracy]), \
                chosen by the file's extension or content.

                \(CLIContext.dateHelp)

                Examples:
                  chime geofence simulate --track Examples/commute.gpx
                  chime geofence simulate --track drive.nmea --from "2026-11-23 07:30" --json
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var configOption: ConfigOption

        @Option(help: ArgumentHelp("The track: a .gpx, .nmea or .csv file.", valueName: "file"))
        var track: String

        @Option(help: ArgumentHelp("Move the track in time so that it starts at this date (default: its own times).", valueName: "date"))
        var from: String?

        func run() throws {
            let settings = try configOption.load().geofence
            var fixes = try TrackInput.read(track)
            if let from {
                let start = try CLIContext.instant(from, option: "--from")
                let shift = start.secondsSince1970 * 1000 - fixes[0].timestampMilliseconds
                fixes = fixes.map { var f = $0; f.timestampMilliseconds += shift; return f }
            }
            let store = try options.open()
            let sources = try store.locationAlarmSources(from: fixes[0].timestamp)
            let result = GeofenceSimulation.run(items: sources.map { ($0.item, $0.replaced) }, fixes: fixes,
                                                zone: CLIContext.zone, settings: settings)
            var out = OutputBuffer()
            let writer = GeofenceWriter(zone: CLIContext.zone, now: CLIContext.now)
            if options.json {
                writer.simulationJSON(result, track: track, fixes: fixes, into: &out)
            } else {
                writer.simulationText(result, track: track, fixes: fixes, into: &out)
            }
            out.flush()
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
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
                fences += GeofenceArming.fences(for: source.item, replaced: source.replaced, at: now, zone: CLIContext.zone,
                                                settings: settings).fences
            }
            fences.sort { ($0.item.title, $0.key) < ($1.item.title, $1.key) }
            let statuses = try store.geofenceStatuses()
            let last = try store.lastLocationFix()
            let fired = try store.ledgerEntries(for: fences.map(\.key))
            var out = OutputBuffer()
            let writer = GeofenceWriter(zone: CLIContext.zone, now: now)
            if options.json {
                writer.listJSON(fences, statuses: statuses, fired: fired, last: last, into: &out)
            } else {
                writer.listText(fences, statuses: statuses, fired: fired, last: last, into: &out)
            }
            out.flush()
        }
    }
}

/// Reads a track file for the CLI, with errors that name the file and line.
enum TrackInput {
    static func read(_ path: String) throws -> [LocationFix] {
        do { return try ReplayProvider.readTrack(path: path).fixes } catch { throw InputError("\(error)") }
    }
}
