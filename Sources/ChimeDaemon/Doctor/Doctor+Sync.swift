import ChimeCore
import ChimeFormat
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
        messages: Messages = .english, passwordKept: (SyncAccount) -> Bool = { _ in false }
    ) -> [DoctorCheck] {
        if accounts.isEmpty && subscriptions.isEmpty {
            return [
                DoctorCheck(
                    name: messages("calendar sync", context: "doctor check"), status: .ok,
                    detail: messages("no CalDAV accounts or subscriptions ({commands})", ["commands": "chime account add, chime calendar subscribe"]))
            ]
        }
        func ago(_ then: Instant) -> String { DisplayText.ago(max(0, now.secondsSince1970 - then.secondsSince1970), messages: messages) }
        var checks: [DoctorCheck] = []
        for a in accounts {
            let name = messages("account {name}", context: "doctor check", ["name": a.name])
            let place = messages("{user} at {url}", ["user": a.username, "url": a.url])
            if let error = a.lastError {
                checks.append(
                    DoctorCheck(
                        name: name, status: .warn, detail: messages("{place}: last sync failed: {error}", ["place": place, "error": error]),
                        fix: "chime account sync \(a.name)"))
            } else if a.passwordCommand == nil && !passwordKept(a) {
                checks.append(
                    DoctorCheck(
                        name: name, status: .warn,
                        detail: messages(
                            "{place}: no password command and no password in the Secret Service, so the daemon cannot sync it (only `chime account sync` at a terminal)",
                            ["place": place]),
                        fix: "chime account remove \(a.name) && chime account add \(a.name) --url \(a.url) --user \(a.username) --password-command 'CMD'"))
            } else if let last = a.lastSync {
                checks.append(DoctorCheck(name: name, status: .ok, detail: messages("{place}: last synced {ago}", ["place": place, "ago": ago(last)])))
            } else {
                checks.append(
                    DoctorCheck(name: name, status: .warn, detail: messages("{place}: never synced", ["place": place]), fix: "chime account sync \(a.name)"))
            }
        }
        for s in subscriptions {
            let name = messages("subscription {title}", context: "doctor check", ["title": s.title])
            if let error = s.lastError {
                checks.append(
                    DoctorCheck(
                        name: name, status: .warn, detail: messages("{url}: last refresh failed: {error}", ["url": s.url, "error": error]),
                        fix: "chime calendar refresh \"\(s.title)\""))
            } else {
                checks.append(
                    DoctorCheck(
                        name: name, status: .ok,
                        detail: s.lastRefresh.map { messages("{url}: refreshed {ago}", ["url": s.url, "ago": ago($0)]) }
                            ?? messages("{url}: never refreshed", ["url": s.url])))
            }
        }
        return checks
    }
}
