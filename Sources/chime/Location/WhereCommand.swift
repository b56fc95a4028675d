import ArgumentParser
import ChimeCore
import ChimeDaemon
import ChimeFormat
import ChimeScheduler
import Foundation

struct WhereCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "where",
        abstract: "Print the current position from the configured location provider.",
        discussion: """
            Asks the provider the daemon would use (config geofence.location, default GeoClue2 \
            as desktop id "chime") for one exact position and prints it with its accuracy and \
            time. Useful to check that GeoClue lets Chime locate (the permission it needs is \
            PREFIX/share/doc/chime/geoclue-chime.conf, PREFIX ~/.local by default; chime doctor \
            says how to install it).

            Examples:
              chime where
              chime where --location fixed:52.52,13.405,20 --json
              chime where --timeout 60
            """)

    @OptionGroup var configOption: ConfigOption

    @Option(help: ArgumentHelp("geoclue, replay:FILE or fixed:LAT,LON[,ACCURACY] (default: the config's geofence.location).", valueName: "source"))
    var location: String?

    @Option(help: ArgumentHelp("Give up after this many seconds.", valueName: "seconds"))
    var timeout: Int = 30

    @OptionGroup var output: JSONOption

    func validate() throws {
        try OptionBounds.check("--timeout", timeout, ValueBounds.timeoutSeconds)
    }

    func run() async throws {
        let source: LocationSource
        if let location {
            do { source = try LocationSource(parsing: location) } catch { throw InputError("--location: \(error)") }
        } else {
            source = try configOption.load().location
        }
        let provider: (any LocationProvider)?
        do { provider = try Daemon.makeLocationProvider(source, speed: .asFastAsPossible, clock: SystemWallClock()) } catch {
            throw InputError("\(error)")
        }
        guard let provider else { throw InputError(translatable: "location is \"none\": no provider to ask (use --location)") }
        defer { provider.shutdown() }
        provider.request(TrackingRequest(accuracy: .exact, distanceThresholdMetres: 0, timeThresholdSeconds: 0, reason: "chime where"))
        let answer = await provider.updates.first(within: Double(timeout), ifEnded: .unavailable("\(provider.name) gave no position"))
        switch answer {
        case .fix(let fix)?:
            if output.json {
                print(
                    JSONText.document([
                        ("provider", JSONText.string(provider.name)), ("latitude", "\(fix.latitude)"),
                        ("longitude", "\(fix.longitude)"), ("accuracy_m", "\(fix.horizontalAccuracy)"),
                        ("time", JSONText.string(fix.timestamp.description))
                    ]))
            } else {
                let local = CLIContext.zone.localTime(at: fix.timestamp), messages = CLIContext.messages
                print(
                    messages(
                        "{position} ±{accuracy} m at {day} {time} ({provider})",
                        [
                            "position": "\(fix.coordinate)", "accuracy": "\(Int(fix.horizontalAccuracy.rounded()))",
                            "day": messages.dayHeading(local.date), "time": DisplayText.hhmm(local), "provider": provider.name
                        ]))
            }
        case .unavailable(let reason)?:
            throw InputError(translatable: "no position from {provider}: {reason}", ["provider": provider.name, "reason": "\(reason)"])
        case nil:
            throw InputError(translatable: "no position from {provider} within {seconds} s", ["provider": provider.name, "seconds": "\(timeout)"])
        }
    }
}
