import ArgumentParser
import ChimeDaemon
import ChimeStore
import Foundation
import Logging

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the background notifier: fire alarms as desktop notifications.",
        discussion: """
            Runs in the foreground (for a systemd user unit: Config/chime.service) until SIGTERM \
            or SIGINT. Sleeps until the next alarm on a wall-clock timer, wakes when any process \
            changes the store, and after a clock change or resume catches up on alarms that came \
            due meanwhile (within the grace window; more than a few become one "You missed N \
            alarms" notification). Each firing is recorded in the store's alarm ledger, so it is \
            shown at most once, also across crashes and restarts. One daemon per store.

            Notifications go to the desktop's notification server (libnotify) with Complete and \
            Snooze actions; with --notifier stdout, or when no server answers, they are printed \
            as JSON lines. Logs go to standard error.

            Configuration: $XDG_CONFIG_HOME/chime/config.toml (see Config/config.toml).

            Examples:
              chime daemon
              chime daemon --notifier stdout --store /tmp/test.sqlite
            """)

    @Option(name: .long, help: ArgumentHelp("The store file (default: $CHIME_STORE, else $XDG_DATA_HOME/chime/chime.sqlite).", valueName: "path"))
    var store: String?

    @Option(help: ArgumentHelp("Where notifications go: libnotify, stdout, or auto (libnotify if a server answers).", valueName: "name"))
    var notifier: String?

    @Option(help: ArgumentHelp("Configuration file (default: $XDG_CONFIG_HOME/chime/config.toml).", valueName: "path"))
    var config: String?

    func validate() throws {
        if let notifier, DaemonConfiguration.Notifier(rawValue: notifier) == nil {
            throw ArgumentParser.ValidationError("--notifier must be libnotify, stdout or auto, not \"\(notifier)\"")
        }
    }

    func run() async throws {
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(path: config ?? DaemonConfiguration.defaultPath(), explicit: config != nil)
        } catch { throw InputError("configuration: \(error)") }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        do {
            try await Daemon.run(storePath: store ?? StoreLocation.defaultPath(), configuration: configuration,
                                 notifier: notifier.flatMap(DaemonConfiguration.Notifier.init(rawValue:)))
        } catch let error as DaemonError {
            throw InputError("\(error)")
        } catch let error as StoreError {
            throw InputError("\(error)")
        }
    }
}
