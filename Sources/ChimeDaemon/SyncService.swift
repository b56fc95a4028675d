import ChimeCalDAV
import ChimeCore
import ChimeScheduler
import ChimeStore
import Foundation
import Logging

/// When the daemon syncs CalDAV accounts (`[sync]` in the configuration).
public struct SyncSettings: Hashable, Sendable {
    /// A pass of every account this often (default 5 minutes).
    public var intervalSeconds: Int64 = 300
    /// A pass this long after a local change to a synced calendar (edits in a burst go together).
    public var afterChangeSeconds: Int64 = 3
    /// While an alarm notification is on screen or snoozed here, a pass this often (one
    /// sync-collection request per calendar when nothing changed), so that an answer given on
    /// another device takes it off this screen within seconds.
    public var whileAlarmShownSeconds: Int64 = 20
    /// A pass this long before the next alarm rings (unless one ran since), so that an alarm
    /// answered, an event cancelled or an invitation declined on another device in the last
    /// minutes does not ring here. 0: none.
    public var beforeAlarmSeconds: Int64 = 60
    /// While a server does not answer, the next try waits 30 s, then 1, 2, 4 … minutes, at most the interval.
    public var firstRetrySeconds: Int64 = 30
    /// How often a pass also lists the calendar home for calendars made on the server (one
    /// request more); the passes between cost one request per calendar when nothing changed.
    public var discoverySeconds: Int64 = 3600

    public init() {}

    /// How long to wait after `failures` failed passes in a row (0: the interval). A refused
    /// password (or a password command that fails) waits the whole interval: trying sooner would
    /// only repeat the refusal, and run the password command each time.
    ///
    /// ```swift
    /// SyncSettings().delay(afterFailures: 2, refused: false)   // 60
    /// ```
    public func delay(afterFailures failures: Int, refused: Bool = false) -> Int64 {
        guard failures > 0, !refused else { return intervalSeconds }
        let backoff = firstRetrySeconds << Int64(min(failures - 1, 20))
        return min(backoff, intervalSeconds)
    }
}

/// Syncs every account and refreshes every subscribed calendar when its interval has passed. Accounts: at start, a few seconds after a local change to one of their calendars,
/// every interval, and a minute before the next alarm rings; while a server does not answer it backs off, and a refused password waits
/// for the next interval (never a retry storm). A pass runs beside the scheduler and writes in
/// short transactions of its own, so it never holds up an alarm.
public struct SyncService: Sendable {
    let store: EventStore
    let settings: SyncSettings
    let logger: Logger
    let now: @Sendable () -> Instant
    let sleep: @Sendable (Int64) async throws -> Void
    /// The scheduler's notifications: while one is on screen, accounts sync every ``SyncSettings/whileAlarmShownSeconds``.
    let onScreen: AlarmsOnScreen?
    /// One pass of one account (tests count passes with their own).
    let passOverride: (@Sendable (SyncAccount) async -> PassOutcome)?

    public init(
        store: EventStore, settings: SyncSettings, logger: Logger, onScreen: AlarmsOnScreen? = nil,
        now: @escaping @Sendable () -> Instant = EventStore.systemNow,
        sleep: @escaping @Sendable (Int64) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        self.init(store: store, settings: settings, logger: logger, onScreen: onScreen, now: now, sleep: sleep, pass: nil)
    }

    init(
        store: EventStore, settings: SyncSettings, logger: Logger, onScreen: AlarmsOnScreen?,
        now: @escaping @Sendable () -> Instant, sleep: @escaping @Sendable (Int64) async throws -> Void,
        pass: (@Sendable (SyncAccount) async -> PassOutcome)?
    ) {
        self.store = store
        self.settings = settings
        self.logger = logger
        self.now = now
        self.sleep = sleep
        self.onScreen = onScreen
        self.passOverride = pass
    }

    private enum Wake { case timer, localChange, alarmShown }

    public func run() async throws {
        let (wakes, wake) = AsyncStream<Wake>.makeStream()
        // A local change wakes the loop a few seconds later (edits in a burst go together).
        let watcher = Task {
            for await _ in store.changes {
                try? await sleep(settings.afterChangeSeconds)
                wake.yield(.localChange)
            }
        }
        defer { watcher.cancel() }
        // A notification coming on screen starts the quick passes at once.
        let screenWatcher = Task {
            guard let onScreen else { return }
            for await showing in onScreen.changes() where showing { wake.yield(.alarmShown) }
        }
        defer { screenWatcher.cancel() }
        var lastPass: [String: Instant] = [:]
        var failures: [String: Int] = [:]
        var due: [String: Instant] = [:]
        var discovered: [String: Instant] = [:]
        var localChange = false
        var iterator = wakes.makeAsyncIterator()
        // When a pass is due before the next alarm: from `beforeAlarmSeconds` ahead of it until it
        // rings, for an account that answers and has not synced since that moment.
        func beforeAlarm(_ account: SyncAccount, at instant: Instant) -> Instant? {
            guard settings.beforeAlarmSeconds > 0, let alarm = onScreen?.nextAlarm, (failures[account.name] ?? 0) == 0 else { return nil }
            let from = alarm.adding(-settings.beforeAlarmSeconds)
            guard instant < alarm, (lastPass[account.name] ?? Instant(secondsSince1970: .min)) < from else { return nil }
            return from
        }
        while !Task.isCancelled {
            let accounts = (try? store.sync.accounts()) ?? []
            let start = now()
            let quick = onScreen?.isShowing == true
            for account in accounts {
                let periodic = (due[account.name] ?? start) <= start
                // While an alarm is shown, a server that answers is asked again every few seconds.
                let quickDue =
                    quick && (failures[account.name] ?? 0) == 0
                    && (lastPass[account.name]?.secondsSince1970 ?? .min) + settings.whileAlarmShownSeconds <= start.secondsSince1970
                let alarmSoon = beforeAlarm(account, at: start).map { $0 <= start } ?? false
                // A change the sync itself wrote, or one outside synced calendars, sends nothing.
                guard
                    periodic || quickDue || alarmSoon
                        || (localChange && ((try? store.sync.hasUnsyncedChanges(account: account.name)) ?? false))
                else { continue }
                let discover = discovered[account.name].map { now().secondsSince1970 - $0.secondsSince1970 >= settings.discoverySeconds } ?? true
                let outcome = if let passOverride { await passOverride(account) } else { await pass(account, discover: discover) }
                lastPass[account.name] = now()
                if outcome == .done && discover { discovered[account.name] = now() }
                failures[account.name] = outcome == .done ? 0 : (failures[account.name] ?? 0) + 1
                due[account.name] = now().adding(settings.delay(afterFailures: failures[account.name] ?? 0, refused: outcome == .refused))
            }
            localChange = false
            // Subscribed calendars whose refresh interval has passed (a conditional GET each).
            let feeds = (try? store.subscriptions()) ?? []
            for feed in feeds where feed.isDue(at: now()) {
                do {
                    if let r = try await FeedRefresh.refresh(feed, store: store, now: now()) {
                        logger.info(
                            "subscription refreshed",
                            metadata: [
                                "calendar": "\(feed.title)", "added": "\(r.added)",
                                "updated": "\(r.updated)", "removed": "\(r.removed)"
                            ])
                    }
                } catch {
                    logger.warning("subscription refresh failed: \(error)", metadata: ["calendar": "\(feed.title)"])
                }
            }
            var nextFeed: Int64? = nil
            for feed in (try? store.subscriptions()) ?? [] {
                let at = (feed.lastRefresh?.secondsSince1970 ?? 0) + feed.refreshSeconds - now().secondsSince1970
                nextFeed = min(nextFeed ?? at, max(1, at))
            }
            let nextAccount = due.values.min().map { max(0, $0.secondsSince1970 - now().secondsSince1970) }
            let nextQuick: Int64? =
                onScreen?.isShowing == true && accounts.contains(where: { (failures[$0.name] ?? 0) == 0 })
                ? settings.whileAlarmShownSeconds : nil
            let nextBeforeAlarm = accounts.compactMap { beforeAlarm($0, at: now()) }.min()
                .map { max(0, $0.secondsSince1970 - now().secondsSince1970) }
            let wait = [nextAccount, nextFeed, nextQuick, nextBeforeAlarm].compactMap { $0 }.min() ?? settings.intervalSeconds
            let timer = Task {
                try? await sleep(wait)
                if !Task.isCancelled { wake.yield(.timer) }
            }
            guard let woke = await iterator.next() else { break }
            timer.cancel()
            if woke == .localChange { localChange = true }
        }
    }

    enum PassOutcome { case done, failed, refused }

    /// One pass of one account.
    private func pass(_ account: SyncAccount, discover: Bool) async -> PassOutcome {
        do {
            let report = try await CalDAVSync.sync(account, store: store, interactive: false, discover: discover, clock: now)
            for note in report.notes { logger.notice("\(note)", metadata: ["account": "\(account.name)"]) }
            for conflict in report.conflicts { logger.warning("sync conflict: \(conflict)", metadata: ["account": "\(account.name)"]) }
            let level: Logger.Level = report.movedNothing && report.refused == 0 ? .debug : .info
            logger.log(
                level: level, "synced",
                metadata: [
                    "account": "\(account.name)", "pulled": "\(report.pulled)", "removed_here": "\(report.removedHere)",
                    "pushed": "\(report.pushed)", "removed_there": "\(report.removedThere)", "refused": "\(report.refused)", "requests": "\(report.requests)"
                ])
            return .done
        } catch {
            logger.warning("sync failed: \(error)", metadata: ["account": "\(account.name)"])
            switch error as? CalDAVError {
            case .authentication?, .password?: return .refused
            default: return .failed
            }
        }
    }
}
