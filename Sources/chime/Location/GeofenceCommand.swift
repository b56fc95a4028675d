import ArgumentParser
import ChimeCore
import ChimeFormat
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
              chime add reminder "Buy milk" --at "Grocery store@52.5250,13.4020" \\
                --on arrive
              chime geofence simulate --track Examples/commute.gpx --from "mon 7:30"
              chime geofence list
            """,
        subcommands: [Simulate.self, List.self])

}

/// Reads a track file for the CLI, with errors that name the file and line.
enum TrackInput {
    static func read(_ path: String) throws -> [LocationFix] {
        do { return try ReplayProvider.readTrack(path: path).fixes } catch { throw InputError("\(error)") }
    }
}
