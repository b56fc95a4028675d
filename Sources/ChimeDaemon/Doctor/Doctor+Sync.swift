import ChimeCore
import ChimeStore

extension Doctor {
    /// One line per CalDAV account and subscribed calendar: how its last sync or refresh went,
    /// and for an account the daemon cannot sync on its own (no password command, and no password
    /// in the Secret Service by `passwordKept`), how to fix it.
    ///
    /// ```swift
    /// Doctor.syncChecks(accounts: found.accounts, subscriptions: found.subscriptions, now: EventStore.systemNow()) { account in
    ///     (try? SecretService().lookup(account.secretKey)) != nil
    /// }
    /// ```
    public static func syncChecks(
        accounts: [SyncAccount], subscriptions: [CalendarSubscription], now: Instant,
        passwordKept: (SyncAccount) -> Bool = { _ in false }
    ) -> [DoctorCheck] {
        if accounts.isEmpty && subscriptions.isEmpty {
            return [
                DoctorCheck(
                    name: "calendar sync", status: .ok,
                    detail: "no CalDAV accounts or subscriptions (chime account add, chime calendar subscribe)")
            ]
        }
        var checks: [DoctorCheck] = []
        for a in accounts {
            let name = "account \(a.name)"
            let place = "\(a.username) at \(a.url)"
            if let error = a.lastError {
                checks.append(
                    DoctorCheck(
                        name: name, status: .warn, detail: "\(place): last sync failed: \(error)",
                        fix: "chime account sync \(a.name)"))
            } else if a.passwordCommand == nil && !passwordKept(a) {
                checks.append(
                    DoctorCheck(
                        name: name, status: .warn,
                        detail:
                            "\(place): no password command and no password in the Secret Service, so the daemon cannot sync it (only `chime account sync` at a terminal)",
                        fix: "chime account remove \(a.name) && chime account add \(a.name) --url \(a.url) --user \(a.username) --password-command 'CMD'"))
            } else if let last = a.lastSync {
                checks.append(DoctorCheck(name: name, status: .ok, detail: "\(place): last synced \(ago(last, now: now))"))
            } else {
                checks.append(DoctorCheck(name: name, status: .warn, detail: "\(place): never synced", fix: "chime account sync \(a.name)"))
            }
        }
        for s in subscriptions {
            let name = "subscription \(s.title)"
            if let error = s.lastError {
                checks.append(
                    DoctorCheck(
                        name: name, status: .warn, detail: "\(s.url): last refresh failed: \(error)",
                        fix: "chime calendar refresh \"\(s.title)\""))
            } else {
                checks.append(
                    DoctorCheck(
                        name: name, status: .ok,
                        detail: "\(s.url): refreshed \(s.lastRefresh.map { ago($0, now: now) } ?? "never")"))
            }
        }
        return checks
    }

    private static func ago(_ then: Instant, now: Instant) -> String {
        let seconds = max(0, now.secondsSince1970 - then.secondsSince1970)
        if seconds < 120 { return "\(seconds) s ago" }
        if seconds < 7200 { return "\(seconds / 60) min ago" }
        if seconds < 172_800 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86_400) days ago"
    }
}
