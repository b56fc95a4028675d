import ArgumentParser
import ChimeDaemon
import ChimeFormat
import ChimeScheduler
import ChimeStore
import Foundation
import Logging

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the background notifier: fire alarms as desktop notifications.",
        discussion: """
            Runs in the foreground until SIGTERM or SIGINT; `make install` puts a systemd user unit \
            for it in ~/.local/share/systemd/user/chime.service (start it with \
            systemctl --user enable --now chime). \
            Sleeps until the next alarm on a wall-clock timer, wakes when any process \
            changes the store, and after a clock change or resume catches up on alarms that came \
            due meanwhile (within the grace window; more than a few become one "You missed N \
            alarms" notification). Each firing is recorded in the store's alarm ledger, so it is \
            shown at most once, also across crashes and restarts. One daemon per store: a second one \
            exits with status 3 (1 for other errors), which the systemd unit does not restart.

            Notifications go to the desktop's notification server (libnotify) with Complete and \
            Snooze actions, a sound where an alarm asks for one, and the commands of the \
            config's [commands] allow-list that items name (chime add --alarm-command); with \
            --notifier stdout, or when no server answers, they are printed as JSON lines. Logs \
            go to standard error.

            Location alarms: positions come from GeoClue2 (desktop id "chime"; the permission \
            it needs is PREFIX/share/doc/chime/geoclue-chime.conf, and chime doctor says how to \
            install it), started only while a fence is armed, at the accuracy the \
            nearest fence needs. If GeoClue is absent or refuses, that is logged once and timed \
            alarms go on; it is retried every minute. --location replay:FILE plays a recorded \
            track instead (with --speed), fixed:LAT,LON stays at one place, none turns them off.

            Configuration: $XDG_CONFIG_HOME/chime/config.toml; every key, with its default, is in \
            PREFIX/share/doc/chime/config.example.toml (PREFIX is ~/.local unless make install \
            was given another).

            Examples:
              chime daemon
              chime daemon --notifier stdout --store /tmp/test.sqlite
              chime daemon --location replay:Examples/commute.gpx --speed 60
            """)

    @OptionGroup var storePath: StorePathOption

    @Option(help: ArgumentHelp("Where notifications go: libnotify, stdout, or auto (libnotify if a server answers).", valueName: "name"))
    var notifier: String?

    @OptionGroup var configOption: ConfigOption

    @Option(
        help: ArgumentHelp(
            "Where positions come from: geoclue, none, replay:FILE (GPX, NMEA or CSV) or fixed:LAT,LON[,ACCURACY] (default: the config's geofence.location, else geoclue).",
            valueName: "source"))
    var location: String?

    @Option(
        help: ArgumentHelp(
            "With --location replay:FILE: play the track this many times faster (60 = a minute per second), or \"max\" for no waiting.", valueName: "factor"))
    var speed: String?

    /// The parsed --speed.
    var replaySpeed: ReplayProvider.Speed {
        get throws {
            guard let speed else { return .realTime }
            if speed == "max" { return .asFastAsPossible }
            guard let factor = Double(speed), factor.isFinite, factor > 0 else {
                throw ArgumentParser.ValidationError(
                    CLIContext.messages("{option} must be a number above 0 or \"max\", not \"{value}\"", ["option": "--speed", "value": speed]))
            }
            try OptionBounds.check("--speed", factor, ValueBounds.speed, shown: speed)
            return factor == 1 ? .realTime : .scaled(factor)
        }
    }

    func validate() throws {
        _ = try replaySpeed
        if let location {
            do { _ = try LocationSource(parsing: location) } catch { throw ArgumentParser.ValidationError("--location: \(error)") }
        }
        if let notifier, DaemonConfiguration.Notifier(rawValue: notifier) == nil {
            throw ArgumentParser.ValidationError(
                CLIContext.messages("{option} must be libnotify, stdout or auto, not \"{value}\"", ["option": "--notifier", "value": notifier]))
        }
    }

    func run() async throws {
        let configuration = try configOption.load()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        do {
            try await Daemon.run(
                storePath: storePath.store ?? StoreLocation.defaultPath(), configuration: configuration,
                notifier: notifier.flatMap(DaemonConfiguration.Notifier.init(rawValue:)),
                location: try location.map { try LocationSource(parsing: $0) }, replaySpeed: try replaySpeed,
                busService: true)
        } catch let error as DaemonError where error.exitStatus != 1 {
            // The same one line as other errors, with its own exit status (see DaemonError.exitStatus).
            FileHandle.standardError.write(Data((CLIContext.messages("Error: {message}", ["message": "\(error)"]) + "\n").utf8))
            throw ExitCode(error.exitStatus)
        } catch let error as DaemonError {
            throw CLIError.daemon(error)
        } catch let error as StoreError {
            throw CLIError.store(error)
        }
    }
}
