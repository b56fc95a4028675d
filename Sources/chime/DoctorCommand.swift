import ArgumentParser
import ChimeCore
import ChimeCalDAV
import ChimeDaemon
import ChimeDesktop
import ChimeLanguage
import ChimeStore
import Foundation

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the store, desktop services, systemd unit, time zone and daemon.",
        discussion: """
            One line per check, status first (ok, warn, fail), with the command that fixes \
            anything not ok. Nothing is created or changed, and each check gives up after 2 s. \
            Exits 1 when a check failed; warnings (no notification server: alarms go to standard \
            output; no daemon running) do not fail.

            Examples:
              chime doctor
              chime doctor --store /tmp/test.sqlite --json
            """)

    @OptionGroup var storePath: StorePathOption
    @OptionGroup var output: JSONOption

    func run() throws {
        // JSON stays English (a script's input); the text is in the user's language.
        let messages = output.json ? Messages.english : CLIContext.messages
        let report = DoctorReport(checks: Self.checks(storeOption: storePath.store, messages: messages))
        print(output.json ? report.json : report.text(messages: messages), terminator: "")
        if report.status == .fail { throw ExitCode(1) }
    }

    static func checks(storeOption: String?, messages: Messages = .english) -> [DoctorCheck] {
        let environment = ProcessInfo.processInfo.environment
        let (path, origin) = Doctor.storePath(option: storeOption, environment: environment)
        var checks = Doctor.storeChecks(path: path, origin: origin, messages: messages)
        checks.append(Doctor.daemonCheck(store: path, holder: DaemonLock.holder(ofStore: path), messages: messages))
        checks.append(Doctor.notificationCheck(DesktopServiceProbe.notificationServer(timeout: .seconds(2)), messages: messages))
        checks.append(Doctor.geoClueCheck(DesktopServiceProbe.geoClue(timeout: .seconds(2)), messages: messages))
        let files = Doctor.geoClueConfigFiles()
        let installed = Doctor.Installed.running()
        checks.append(
            Doctor.geoCluePermissionCheck(
                files: files, hasDropInFolder: FileManager.default.fileExists(atPath: "/etc/geoclue/conf.d"), installed: installed,
                messages: messages))
        if let agent = Doctor.geoClueAgentCheck(files: files, processes: Doctor.userProcesses(), messages: messages) { checks.append(agent) }
        let systemctl = ["/usr/bin/systemctl", "/bin/systemctl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        checks.append(
            Doctor.systemdCheck(environment: environment, installed: installed, messages: messages) { arguments in
                systemctl.flatMap { Doctor.runBounded($0, ["--user"] + arguments, timeout: 2) }
            })
        checks.append(Doctor.zoneCheck(SystemZone.resolve(environment: environment), messages: messages))
        checks.append(Doctor.languageCheck(environment: environment, folder: MessageCatalog.folder(environment: environment), messages: messages))
        let found = (try? StoreInspection.inspect(path: path)) ?? nil
        checks.append(
            Doctor.identityCheck(
                configured: Array(AlarmEcho.defaults.identity.addresses), accounts: found?.accounts ?? [],
                calendarNames: (found?.calendarOwnerAddresses ?? []).sorted(), messages: messages))
        if let found {
            checks += Doctor.syncChecks(accounts: found.accounts, subscriptions: found.subscriptions, now: CLIContext.clock(), messages: messages) { account in
                (try? SecretService().lookup(account.secretKey)) != nil
            }
        }
        return checks
    }
}
