import ChimeCore
import ChimeDesktop
import ChimeLanguage
import Foundation
import Synchronization

/// The language the daemon's notifications speak, read for each batch of notifications. A daemon
/// the systemd user manager started (its environment has `INVOCATION_ID`) follows the manager's
/// locale variables while it answers on the session bus: that is where a change of the desktop's
/// language lands while the daemon runs (`systemctl --user set-environment LANG=de_DE.UTF-8`, a
/// new login's `import-environment`). Otherwise (started in a terminal, or no manager answers) the
/// daemon's own environment decides. The catalogs of the last locale are kept, so an unchanged locale
/// costs one bus round trip.
///
/// ```swift
/// let locale = DaemonLocale(environment: ProcessInfo.processInfo.environment)
/// let scheduler = AlarmScheduler(store: store, sink: sink, clock: clock, locale: { locale.messages() })
/// ```
public final class DaemonLocale: Sendable {
    /// The variables that choose a language (LocaleEnvironment reads these).
    static let names: Set<String> = ["LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_TIME", "LC_CTYPE"]

    private let environment: [String: String]
    private let managerEnvironment: @Sendable () -> [String: String]?
    private let last = Mutex<(variables: [String: String], messages: Messages)?>(nil)

    /// `managerEnvironment` answers the user manager's environment, nil when there is none
    /// (no systemd user instance on the bus): tests pass their own.
    public init(
        environment: [String: String],
        managerEnvironment: @escaping @Sendable () -> [String: String]? = { try? DesktopServiceProbe.userManagerEnvironment().get() }
    ) {
        self.environment = environment
        if environment["INVOCATION_ID"] == nil {
            self.managerEnvironment = { nil }
        } else {
            self.managerEnvironment = managerEnvironment
        }
    }

    /// The messages for the locale in force now.
    public func messages() -> Messages {
        let variables = Self.variables(own: environment, manager: managerEnvironment())
        return last.withLock { last in
            if let last, last.variables == variables { return last.messages }
            let messages = Messages(environment: variables)
            last = (variables, messages)
            return messages
        }
    }

    /// The locale variables in force: the manager's, when it answers (all of them: a variable it
    /// dropped is dropped here too), else the process's own.
    static func variables(own: [String: String], manager: [String: String]?) -> [String: String] {
        (manager ?? own).filter { names.contains($0.key) }
    }
}
