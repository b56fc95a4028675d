import ArgumentParser
import ChimeCore
import ChimeFormat
import ChimeScheduler
import ChimeStore
import Foundation

extension GeofenceCommand {
    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
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
                fixes = fixes.map {
                    var f = $0; f.timestampMilliseconds += shift; return f
                }
            }
            let store = try options.open()
            let sources = try store.locationAlarmSources(from: fixes[0].timestamp)
            let result = GeofenceSimulation.run(
                items: sources.map { ($0.item, $0.replaced) }, fixes: fixes,
                zone: CLIContext.zone, settings: settings)
            var out = OutputBuffer()
            let writer = GeofenceWriter(zone: CLIContext.zone, now: CLIContext.now, messages: CLIContext.messages)
            if options.json {
                writer.simulationJSON(result, track: track, fixes: fixes, into: &out)
            } else {
                writer.simulationText(result, track: track, fixes: fixes, into: &out)
            }
            out.flush()
        }
    }
}
