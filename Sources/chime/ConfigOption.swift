import ArgumentParser
import ChimeDaemon

/// `--config FILE`: the daemon's configuration, also read by the geofence commands so a preview
/// uses the same radius, hysteresis and dwell settings as the daemon.
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("Configuration file (default: $XDG_CONFIG_HOME/chime/config.toml).", valueName: "path"))
    var config: String?

    func load() throws -> DaemonConfiguration {
        do throws(ConfigurationError) {
            return try DaemonConfiguration.load(path: config ?? DaemonConfiguration.defaultPath(), explicit: config != nil)
        } catch { throw CLIError.daemon(.configuration(error)) }
    }
}
