import ChimeCore
import ChimeStore
import HeapModule
import Logging

/// Decides what fires when, and records it: the alarm agenda of every item in the store, the
/// ledger, catch-up after downtime, snooze, and the user's answers to notifications.
///
/// It is synchronous and owned by one task (``SchedulerService`` drives it); every decision
/// reads time from the injected ``WallClock``, so tests run it in virtual time.
///
/// The rules:
/// - `checkedUntil` (persisted in the store) is the instant up to which every firing has been
///   decided. On start, firings after it that are at most ``SchedulerSettings/graceSeconds``
///   old are delivered (more than ``SchedulerSettings/missedSummaryThreshold`` late ones as one
///   "You missed N alarms" notification); older ones are recorded as missed.
/// - Delivery is claimed in the ledger before the sink shows it, and confirmed once the server
///   accepted it: shown once per ``FiringKey``; a wall clock set backwards never re-fires a key.
/// - Nothing is dropped on a fault: a notification the server refuses stays claimed and is shown
///   again with backoff (1 s, 2 s, 4 s … 60 s) until it is accepted or its grace window ends; a
///   store error at due time keeps the firings for the same retry, and the checkpoint never
///   passes a firing that was not decided; a claim left unconfirmed by a crash is shown on start.
/// - A wall clock set back rewinds the checkpoint to the new now, so alarms added for the
///   repeated time still fire.
/// - A changed item is recomputed alone, from `checkedUntil`: editing an item never fires
///   alarms whose time had already passed.
///
/// ```swift
/// let scheduler = AlarmScheduler(store: store, sink: StdoutSink(), clock: SystemWallClock())
/// try scheduler.start()
/// print(scheduler.nextDeadline() as Any)
/// ```
public final class AlarmScheduler {
    public let store: EventStore
    public let sink: any NotificationSink
    public let clock: any WallClock
    public let settings: SchedulerSettings
    /// The user's language for what notifications say, asked for each batch of notifications
    /// (``Messages/english`` by default): a daemon that runs for days follows a change of it.
    private let locale: @Sendable () -> Messages
    private var messages: Messages { locale() }
    /// Opens an activated notification's URL; nil: activating only acknowledges.
    public let opener: (any URLOpener)?
    /// Starts the allowed command an item names when its alarm fires; nil: commands never run.
    public let commandRunner: (any CommandRunner)?
    public private(set) var zone: ZoneRules
    public private(set) var checkedUntil: Instant
    let logger: Logger

    private var agenda: AlarmAgenda
    private struct Snooze: Comparable, Hashable {
        let until: Int64
        let key: FiringKey
        static func < (a: Snooze, b: Snooze) -> Bool { (a.until, a.key) < (b.until, b.key) }
    }
    private var snoozes = Heap<Snooze>()
    /// When each snoozed firing was snoozed: a snooze this machine made keeps ringing here even
    /// when the server copy comes back without its snooze alarm (a server that drops unknown
    /// lines), unless the item was answered after it.
    private var snoozedAt: [FiringKey: Instant] = [:]
    /// Notifications on screen (or snoozed), by key: what "Snooze" shows again.
    private var shown: [FiringKey: AlarmNotification] = [:] {
        didSet { onScreen.set(!shown.isEmpty) }
    }
    /// Whether any notification is on screen or snoozed, for the services beside the scheduler.
    public let onScreen = AlarmsOnScreen()

    /// Due firings whose decision failed (a store error): tried again at `retryAt`.
    private var undecided: [AlarmFiring] = []
    /// Claimed notifications the server did not take: shown again at `retryAt`.
    private var unshown: [AlarmNotification] = []
    /// Shown notifications whose confirmation write failed: written again with the next step.
    private var unconfirmed: [FiringKey] = []
    private var retryAt: Instant?
    private var retryAttempt = 0
    /// A change set or a clock step could not be applied: rebuild the agenda at the retry.
    private var needsRebuild = false

    /// Called after each decision; for logs, tests and the benchmark.
    public var onEvent: ((SchedulerEvent) -> Void)?

    public init(
        store: EventStore, sink: any NotificationSink, clock: any WallClock, zone: ZoneRules? = nil,
        settings: SchedulerSettings = SchedulerSettings(), opener: (any URLOpener)? = nil,
        commandRunner: (any CommandRunner)? = nil, logger: Logger = Logger(label: "chime.scheduler"),
        messages: Messages = .english, locale: (@Sendable () -> Messages)? = nil
    ) {
        self.store = store
        self.locale = locale ?? { messages }
        self.opener = opener
        self.commandRunner = commandRunner
        self.sink = sink
        self.clock = clock
        self.settings = settings
        self.zone = zone ?? store.floatingZone
        self.logger = logger
        let now = clock.now()
        checkedUntil = now
        agenda = AlarmAgenda(zone: self.zone, from: now, defaults: settings.alarmDefaults)
    }

    // MARK: Start and catch-up

    /// Loads every item with timed alarms and the snoozed ledger entries, records firings older
    /// than the grace window as missed, and delivers the ones due now (catch-up).
    public func start() throws(StoreError) {
        let now = clock.now()
        try store.ledger.prune(before: now.adding(-settings.ledgerRetentionSeconds))
        let stored = try store.ledger.checkpoint()
        // First run on this store: nothing before now is ours to catch up on.
        if stored == nil { try store.ledger.advanceCheckpoint(to: now) }
        var checkpoint = stored ?? now
        if checkpoint > now {
            // The wall clock was set back while we were off: decide the repeated time again.
            try store.ledger.rewindCheckpoint(to: now)
            checkpoint = now
        }
        checkedUntil = checkpoint
        let graceStart = now.adding(-settings.graceSeconds)
        let from = min(max(checkpoint, graceStart), now)
        // One pass over the store fills both the agenda and, after downtime beyond the grace
        // window, the agenda of firings too old to show; the items themselves are not kept.
        let defaults = try alarmDefaults()
        var old = checkpoint < graceStart ? AlarmAgenda(zone: zone, from: checkpoint, defaults: defaults) : nil
        var fresh = AlarmAgenda(zone: zone, from: from, defaults: defaults)
        try forEachAlarmSource(
            from: min(checkpoint, from),
            restart: {
                old = old.map { _ in AlarmAgenda(zone: zone, from: checkpoint, defaults: defaults) }
                fresh = AlarmAgenda(zone: zone, from: from, defaults: defaults)
            }
        ) { source in
            old?.add(source.item, replaced: source.replaced)
            fresh.add(source.item, replaced: source.replaced)
        }
        if var old { try recordMissed(&old, before: graceStart) }
        fresh.releaseUnusedCapacity()
        agenda = fresh
        reportUnreadableItems()
        for entry in try store.ledger.entries(state: .snoozed) {
            guard let until = entry.snoozedUntil else { continue }
            snoozes.insert(Snooze(until: until.secondsSince1970, key: entry.key))
            snoozedAt[entry.key] = entry.updated
            shown[entry.key] = try restoredNotification(entry)
        }
        // Completed, removed or moved while no daemon ran (here or on another machine): not shown again.
        try withdrawOverAlarms(of: nil)
        // Claimed by an earlier run that ended before the server answered: show them now.
        for entry in try store.ledger.unconfirmedDeliveries() { unshown.append(try restoredNotification(entry)) }
        if !unshown.isEmpty { retryAt = now }
        reportUnreadableItems()
        logger.info(
            "scheduled",
            metadata: [
                "items": "\(agenda.itemCount)", "timelines": "\(agenda.pendingCount)",
                "snoozed": "\(snoozes.count)", "checked_until": "\(checkpoint)"
            ])
        try processDue()
    }

    /// Firings of `old` before `before`: too old to show, recorded as missed (at most 10,000).
    private func recordMissed(_ old: inout AlarmAgenda, before: Instant) throws(StoreError) {
        var missed: [AlarmFiring] = []
        while missed.count < 10_000, let f = old.popNext(through: before.adding(-1)) { missed.append(f) }
        guard !missed.isEmpty else { return }
        try store.ledger.recordMissed(missed, checkedUntil: before, now: clock.now())
        logger.notice("missed alarms older than the grace window", metadata: ["count": "\(missed.count)"])
        onEvent?(.missed(missed.map(\.key)))
    }

    /// The settings' alarm defaults, with the user's addresses on the store's CalDAV servers added
    /// to who "I" am (read at start and at each full rebuild: a new account brings new calendars,
    /// and so a rebuild).
    private func alarmDefaults() throws(StoreError) -> AlarmDefaults {
        try store.alarmDefaults(settings.alarmDefaults)
    }

    /// Every alarm source from `from`; on a damaged file (a malformed page), `restart` drops
    /// what was added and every item that can still be read is read again, one group at a time,
    /// and the ones that could not be are logged: the alarms that can ring still ring.
    private func forEachAlarmSource(from: Instant, restart: () -> Void, _ body: (AlarmSource) -> Void) throws(StoreError) {
        do {
            try store.forEachAlarmSource(from: from, body)
        } catch let error where EventStore.isDamage(error) {
            restart()
            let skipped = try store.forEachAlarmSourceSalvaging(from: from, body)
            logger.error(
                "the store is damaged: read the items that could be read; `chime doctor` names the recovery",
                metadata: [
                    "skipped": "\(skipped.count)", "skipped_items": "\(skipped.prefix(20).joined(separator: ","))",
                    "error": "\(error)"
                ])
        }
    }

    /// Reads every item with alarms that can fire at or after `from` again into a new agenda
    /// that starts at `agendaFrom` (default: `from`).
    private func rebuild(from: Instant, agendaFrom: Instant? = nil) throws(StoreError) {
        let defaults = try alarmDefaults()
        var fresh = AlarmAgenda(zone: zone, from: agendaFrom ?? from, defaults: defaults)
        try forEachAlarmSource(from: from, restart: { fresh = AlarmAgenda(zone: zone, from: agendaFrom ?? from, defaults: defaults) }) {
            fresh.add($0.item, replaced: $0.replaced)
        }
        fresh.releaseUnusedCapacity()
        agenda = fresh
        reportUnreadableItems()
    }

    /// Stored items that cannot be read were skipped (their alarms cannot fire); say so once each.
    private func reportUnreadableItems() {
        for item in store.takeUnreadableItems() {
            logger.warning(
                "skipped an unreadable item; `chime remove \(item.identifier)` deletes it",
                metadata: ["item": "\(item.identifier)", "reason": "\(item.reason)"])
        }
    }

    // MARK: Firing

    /// When the scheduler next has something to do (nil: nothing timed is pending).
    public func nextDeadline() -> Instant? {
        let timed = agenda.peek()?.fireAt
        let snoozed = snoozes.min.map { Instant(secondsSince1970: $0.until) }
        return [timed, snoozed, retryAt].compactMap { $0 }.min()
    }

    /// Delivers (or records as missed) every firing due by now, snoozed ones that came due, and
    /// whatever an earlier step could not finish once its retry time has come.
    ///
    /// Throws when the store cannot record the decision; the firings are kept and tried again
    /// at ``nextDeadline()``.
    public func processDue() throws(StoreError) {
        let nowMs = clock.nowMilliseconds()
        let now = Instant(milliseconds: nowMs)
        var due: [AlarmFiring] = []
        while let f = agenda.popNext(through: now) { due.append(f) }
        var dueSnoozes: [Snooze] = []
        while let s = snoozes.min, s.until <= now.secondsSince1970 { dueSnoozes.append(snoozes.removeMin()) }
        var retrying: [AlarmNotification] = []
        if let at = retryAt, at <= now {
            if needsRebuild {
                // A change or a clock step could not be read earlier: read everything again.
                do {
                    try rebuild(from: checkedUntil)
                    needsRebuild = false
                } catch {
                    retryAt = nil
                    let until = scheduleRetry(now)
                    logger.error("could not read the store; retrying", metadata: ["error": "\(error)", "retry_at": "\(until)"])
                    throw error
                }
                while let f = agenda.popNext(through: now) { due.append(f) }
            }
            retryAt = nil
            due = undecided + due
            undecided = []
            retrying = unshown
            unshown = []
        }
        let graceStart = now.adding(-settings.graceSeconds)
        do {
            try confirmLeftovers(nowMs)
            if due.isEmpty && dueSnoozes.isEmpty && retrying.isEmpty {
                // Remember how far everything was decided, so a restart does not revisit it (one
                // small write per wake; an idle daemon does not wake).
                let decided = decidedUntil(now)
                if decided > checkedUntil {
                    try store.ledger.advanceCheckpoint(to: decided)
                    checkedUntil = decided
                }
                return
            }
            // Refused earlier and now too old to show: recorded as missed.
            let stale = retrying.filter { $0.fireAt < graceStart }
            if !stale.isEmpty {
                try store.ledger.markUnconfirmedMissed(stale.flatMap(\.keys), now: now)
                onEvent?(.missed(stale.flatMap(\.keys)))
            }
            let tooOld = due.filter { $0.fireAt < graceStart }
            if !tooOld.isEmpty {
                try store.ledger.recordMissed(tooOld, checkedUntil: nil, now: now)
                onEvent?(.missed(tooOld.map(\.key)))
            }
            // Nothing that can throw between the claim and the sink: a claimed firing is shown or kept.
            let claimed = try store.ledger.claimDeliveries(
                due.filter { $0.fireAt >= graceStart }, checkedUntil: decidedUntil(now),
                deliveredAtMilliseconds: nowMs)
            checkedUntil = max(checkedUntil, decidedUntil(now))
            due = []
            startCommands(for: claimed)
            let notes = retrying.filter { $0.fireAt >= graceStart } + notifications(for: claimed, now: now)
            retrying = []
            var accepted: [FiringKey] = []
            for note in notes {
                if show(note) { accepted += note.keys } else { unshown.append(note) }
            }
            for s in dueSnoozes {
                guard let note = shown[s.key] else { continue }
                guard try store.ledger.claimSnoozed(s.key, deliveredAtMilliseconds: clock.nowMilliseconds()) else { continue }
                snoozedAt[s.key] = nil
                if !show(note) {
                    // Snoozed again until the retry: the ledger still says when to show it.
                    let until = scheduleRetry(now)
                    try store.ledger.snooze(s.key, until: until, now: now)
                    snoozes.insert(Snooze(until: until.secondsSince1970, key: s.key))
                }
            }
            dueSnoozes = []
            if unshown.isEmpty && !needsRebuild { retryAttempt = 0 } else { scheduleRetry(now) }
            unconfirmed += accepted
            try confirmLeftovers(clock.nowMilliseconds())
        } catch {
            // Keep everything not yet decided for the retry; the checkpoint stays before it.
            undecided += due
            unshown += retrying
            let until = scheduleRetry(now)
            for s in dueSnoozes { snoozes.insert(Snooze(until: until.secondsSince1970, key: s.key)) }
            logger.error(
                "could not record alarms; retrying",
                metadata: [
                    "error": "\(error)", "retry_at": "\(until)", "waiting": "\(undecided.count + unshown.count)"
                ])
            throw error
        }
    }

    /// Firings the checkpoint may pass: everything up to now, but never a firing still undecided.
    private func decidedUntil(_ now: Instant) -> Instant {
        min(now, undecided.map(\.fireAt).min() ?? now)
    }

    /// Confirms shown notifications whose confirmation could not be written before.
    private func confirmLeftovers(_ nowMs: Int64) throws(StoreError) {
        guard !unconfirmed.isEmpty else { return }
        try store.ledger.confirmDeliveries(unconfirmed, deliveredAtMilliseconds: nowMs)
        unconfirmed = []
    }

    /// The next retry: 1 s after the first failure, doubling to at most a minute.
    @discardableResult
    private func scheduleRetry(_ now: Instant) -> Instant {
        if let retryAt { return retryAt }
        let delay = Int64(1) << Int64(min(retryAttempt, 6))
        retryAttempt += 1
        let at = now.adding(min(delay, 60))
        retryAt = at
        return at
    }

    /// What the claimed firings say: one notification each, or a summary for many late ones.
    private func notifications(for claimed: [AlarmFiring], now: Instant) -> [AlarmNotification] {
        guard !claimed.isEmpty else { return [] }
        let messages = self.messages
        let late = claimed.filter { now.secondsSince1970 - $0.fireAt.secondsSince1970 > settings.lateSeconds }
        var notes = claimed.filter { now.secondsSince1970 - $0.fireAt.secondsSince1970 <= settings.lateSeconds }.map {
            notification($0, messages: messages)
        }
        if late.count > settings.missedSummaryThreshold {
            notes.append(NotificationText.missedSummary(late, zone: zone, messages: messages))
        } else {
            notes += late.map { notification($0, messages: messages) }
        }
        notes.sort { ($0.fireAt, $0.summary) < ($1.fireAt, $1.summary) }
        return notes
    }

    /// The notification of one firing; an invitation's says who sent it and who else comes (its
    /// attendees are read from the store here, once per notification: the agenda keeps none).
    private func notification(_ firing: AlarmFiring, messages: Messages? = nil) -> AlarmNotification {
        let messages = messages ?? self.messages
        var invitation: String?
        if firing.item.kind == .event, let item = try? store.calendarItem(withIdentifier: firing.item.identifier) {
            invitation = NotificationText.invitationLine(
                organizer: item.base.organizer, attendees: item.base.attendees,
                identity: agenda.defaults.identity, messages: messages)
        }
        return NotificationText.notification(
            for: firing, zone: zone, snoozeChoices: settings.snoozeChoices, sounds: settings.sounds,
            invitation: invitation, messages: messages)
    }

    /// Delivers firings decided elsewhere (geofence crossings): claimed in the ledger first, so
    /// each key is shown at most once, like timed alarms, and retried like them when refused.
    public func deliver(_ firings: [AlarmFiring]) throws(StoreError) {
        guard !firings.isEmpty else { return }
        let now = clock.now()
        let claimed = try store.ledger.claimDeliveries(firings, checkedUntil: nil, deliveredAtMilliseconds: clock.nowMilliseconds())
        startCommands(for: claimed)
        for firing in claimed {
            let note = notification(firing)
            if show(note) { unconfirmed += note.keys } else { unshown.append(note) }
        }
        if !unshown.isEmpty { scheduleRetry(now) }
        try confirmLeftovers(clock.nowMilliseconds())
    }

    /// Starts the command each claimed firing's item names, when the allow-list has it. Claimed
    /// firings are new to the ledger, so a command runs once per firing, not again on a snooze or a
    /// retried notification. Nothing here stops the notification: a refusal or a failure is logged.
    private func startCommands(for claimed: [AlarmFiring]) {
        guard !claimed.isEmpty else { return }
        let links: [String: AlarmCommandLink]
        do { links = try store.alarmCommandLinks(forItems: Set(claimed.map(\.key.item))) } catch {
            logger.error("could not read which commands the alarms run; none started", metadata: ["error": "\(error)"])
            return
        }
        for firing in claimed {
            guard let link = links[firing.key.item] else { continue }
            let name = link.name
            let metadata: Logger.Metadata = ["command": "\(name)", "title": "\(firing.item.title)", "key": "\(firing.key)"]
            // A file, a server or a D-Bus app changed when this fires since the user linked the
            // command: it does not get to run it. The notification shows as always.
            if link.isRetimed {
                let reason =
                    "the item was re-timed by an import, a sync or a D-Bus app since `chime` linked the command; "
                    + "to run it again: chime edit \(link.linkedItem.prefix(8)) --alarm-command \(name)"
                logger.warning("refused to run the alarm's command: \(reason)", metadata: metadata)
                onEvent?(.commandRefused(firing.key, name: name, reason: reason))
                continue
            }
            switch settings.commands.decision(for: name) {
            case .refused(let reason):
                logger.warning("refused to run the alarm's command: \(reason)", metadata: metadata)
                onEvent?(.commandRefused(firing.key, name: name, reason: reason))
            case .run(let argv):
                guard let commandRunner else {
                    logger.warning("refused to run the alarm's command: this scheduler runs no commands", metadata: metadata)
                    onEvent?(.commandRefused(firing.key, name: name, reason: "no command runner"))
                    continue
                }
                let request = CommandRequest(
                    name: name, argv: argv, environment: CommandRequest.environment(for: firing),
                    timeoutSeconds: settings.commands.timeoutSeconds)
                do throws(CommandError) {
                    try commandRunner.start(request)
                    logger.info("started the alarm's command", metadata: metadata.merging(["argv": "\(argv)"]) { a, _ in a })
                    onEvent?(.commandStarted(firing.key, request))
                } catch {
                    logger.error("could not start the alarm's command", metadata: metadata.merging(["error": "\(error)"]) { a, _ in a })
                    onEvent?(.commandRefused(firing.key, name: name, reason: error.description))
                }
            }
        }
    }

    /// Hands one notification to the sink; false when it was refused (it stays claimed).
    private func show(_ note: AlarmNotification) -> Bool {
        let deliveredAt = clock.nowMilliseconds()
        do {
            try sink.deliver(note, deliveredAtMilliseconds: deliveredAt)
            for key in note.keys { shown[key] = note }
            logger.info(
                "delivered",
                metadata: [
                    "title": "\(note.summary)", "ref": "\(note.references.first ?? "")",
                    "lateness_ms": "\(deliveredAt - note.fireAt.milliseconds)"
                ])
            onEvent?(.delivered(note, deliveredAtMilliseconds: deliveredAt))
            return true
        } catch {
            logger.error("the notification was not shown; retrying", metadata: ["title": "\(note.summary)", "error": "\(error)"])
            onEvent?(.deliveryFailed(note, error.description))
            return false
        }
    }

    // MARK: Changes

    /// Recomputes the items a change set names (everything, when it is truncated or touches calendars).
    public func apply(_ changes: ChangeSet) throws(StoreError) {
        let ids = Set(changes.changes.filter { $0.entity != .calendar }.map(\.identifier))
        do {
            if needsRebuild || changes.isTruncated || changes.changes.contains(where: { $0.entity == .calendar }) {
                try rebuild(from: checkedUntil, agendaFrom: max(agenda.from, checkedUntil))
                needsRebuild = false
            } else {
                let sources = try store.alarmSources(from: checkedUntil, identifiers: ids)
                for id in ids { agenda.remove(item: id) }
                for s in sources { agenda.add(s.item, replaced: s.replaced, from: checkedUntil) }
                reportUnreadableItems()
            }
            let changed = changes.isTruncated || changes.changes.contains { $0.entity == .calendar } ? nil : ids
            try withdrawOverAlarms(of: changed)
            try adoptSnoozes(of: changed)
        } catch {
            // The change is not lost: the whole agenda is read again at the retry.
            needsRebuild = true
            scheduleRetry(clock.now())
            throw error
        }
        let next = nextDeadline()
        logger.debug("rescheduled", metadata: ["items": "\(ids.count)", "next": "\(next.map { "\($0)" } ?? "none")"])
        onEvent?(.rescheduled(ids, next: next))
        try processDue()
    }

    /// Shown or snoozed alarms of these items (every item with nil) that are over: the item was
    /// completed, removed or cancelled, or the occurrence moved, here or on another machine (a
    /// sync's change arrives here too). Their snoozes are dropped, the ledger says so, and their
    /// notifications leave the screen. A title or note edit leaves them as they are.
    private func withdrawOverAlarms(of ids: Set<String>?) throws(StoreError) {
        let affected = shown.filter { ids?.contains($0.key.item) ?? true }
        guard !affected.isEmpty else { return }
        let times = affected.values.map(\.fireAt)
        let sources = try store.alarmSources(from: times.min()!.adding(-1), identifiers: Set(affected.keys.map(\.item)))
        // The items' firings now, over the span of the affected ones: a key still among them rings on.
        let still = Set(
            AlarmAgenda.firings(
                of: sources.map { ($0.item, $0.replaced) }, zone: zone, from: times.min()!.adding(-1),
                to: times.max()!, defaults: try alarmDefaults()
            ).map(\.key))
        var over: [FiringKey] = []
        // A summary of missed alarms stands for many; it is answered as a whole.
        for (key, note) in affected where note.kind != "missed" {
            if still.contains(key) { continue }
            if let made = snoozedAt[key], try keepsSnooze(of: key.item, madeAt: made) { continue }
            // A place's alarm is no timed firing: over only when its item is gone or done.
            if let item = try store.calendarItem(withIdentifier: key.item),
                item.alarms.contains(where: { $0.trigger.locationKeyText == key.alarm })
            {
                if case .reminder(let r) = item, r.isCompleted {} else { continue }
            }
            over.append(key)
        }
        guard !over.isEmpty else { return }
        try store.ledger.withdraw(over, now: clock.now())
        for key in over { shown[key] = nil }
        sink.withdraw(Set(over))
        logger.info("withdrew alarms whose item changed", metadata: ["keys": "\(over)"])
        onEvent?(.withdrawn(over))
    }

    /// Snoozes of these items (every item with nil) made by another process (`chime snooze`):
    /// rung here at their time; a notification of one on screen goes now.
    private func adoptSnoozes(of ids: Set<String>?) throws(StoreError) {
        let known = Set(snoozes.unordered)
        var leaving: Set<FiringKey> = []
        for entry in try store.ledger.entries(state: .snoozed) where ids?.contains(entry.key.item) ?? true {
            guard let until = entry.snoozedUntil else { continue }
            let snooze = Snooze(until: until.secondsSince1970, key: entry.key)
            guard !known.contains(snooze) else { continue }
            snoozes.insert(snooze)
            snoozedAt[entry.key] = entry.updated
            if shown[entry.key] != nil { leaving.insert(entry.key) } else { shown[entry.key] = try restoredNotification(entry) }
        }
        guard !leaving.isEmpty else { return }
        sink.withdraw(leaving)
        logger.info("snoozed elsewhere on this machine", metadata: ["keys": "\(leaving)"])
    }

    /// Whether a snooze made here at `made` still rings although its firing is gone from the
    /// item: the item is there, not done or silenced, and nobody answered it since (a server that
    /// dropped the snooze alarm leaves no later answer; a dismiss on another device does).
    private func keepsSnooze(of identifier: String, madeAt made: Instant) throws(StoreError) -> Bool {
        guard let item = try store.calendarItem(withIdentifier: identifier), agenda.defaults.silence(of: item) == nil else { return false }
        if case .reminder(let r) = item, r.isCompleted { return false }
        let answers = [AlarmAnswers.lastAcknowledged(of: item)] + item.alarms.map(\.acknowledged)
        return answers.compactMap { $0 }.allSatisfy { $0 <= made }
    }

    /// The wall clock was set, the machine resumed, or the zone changed: recompute what depends
    /// on the zone, then catch up. A clock set backwards fires nothing twice (the ledger and
    /// `checkedUntil` remember).
    public func clockChanged(zone newZone: ZoneRules) throws(StoreError) {
        let now = clock.now()
        var mustRebuild = false
        if now < checkedUntil {
            // Set back: the time between now and the checkpoint comes again, and alarms added for
            // it must fire; the ledger keeps the ones already shown from showing twice.
            logger.notice("wall clock set back", metadata: ["from": "\(checkedUntil)", "to": "\(now)"])
            try store.ledger.rewindCheckpoint(to: now)
            checkedUntil = now
            mustRebuild = true
        }
        if newZone != zone {
            logger.notice("time zone changed", metadata: ["from": "\(zone.identifier)", "to": "\(newZone.identifier)"])
            zone = newZone
            mustRebuild = true
        }
        if mustRebuild {
            do {
                try rebuild(from: checkedUntil)
            } catch {
                needsRebuild = true
                scheduleRetry(now)
                throw error
            }
        }
        onEvent?(.clockChanged(clock.now()))
        try processDue()
    }

    // MARK: The user's answers

    public func respond(_ response: NotificationResponse) throws(StoreError) {
        let now = clock.now()
        switch response.kind {
        case .complete:
            for key in response.keys {
                shown[key] = nil
                // In one transaction, and for the instance the notification was about: when the
                // CLI or another notification completed it first, the series is not advanced again.
                let outcome: CompletionOutcome
                do {
                    outcome = try store.complete(reminderWithIdentifier: key.item, dueAt: Self.dueInstant(of: key))
                } catch .unknownItem, .notCurrentInstance {
                    logger.info("nothing to complete", metadata: ["key": "\(key)"])
                    continue
                }
                switch outcome {
                case .completed: logger.info("completed from a notification", metadata: ["reminder": "\(key.item)"])
                case .alreadyCompleted: logger.info("already completed", metadata: ["key": "\(key)"])
                }
            }
        case .snooze:
            let choice = response.snooze ?? settings.snoozeChoices.first ?? .minutes(10)
            let until = choice.until(now: now, zone: zone)
            for record in try snoozeEverywhere(response.keys, until: until, now: now) {
                let note = record.snoozed.lazy.compactMap { self.shown[$0] }.first
                for key in record.snoozed where !record.ringsAgain.contains(key) { shown[key] = nil }
                for key in record.ringsAgain {
                    if var note, !note.keys.contains(key) {
                        // Rings again as the snooze alarm's firing, at its time (what a change of the item is checked against).
                        note.keys = [key]
                        note.fireAt = until
                        shown[key] = note
                    }
                    snoozes.insert(Snooze(until: until.secondsSince1970, key: key))
                    snoozedAt[key] = now
                }
                logger.info(
                    "snoozed",
                    metadata: [
                        "keys": "\(record.snoozed)", "until": "\(until)", "choice": "\(choice)",
                        "where": "\(record.record.map { "\($0)" } ?? "here: another alarm of the item is open")"
                    ])
            }
        case .activated:
            openURLs(of: response.keys)
            showDetails(of: response.keys)
            try store.ledger.dismiss(response.keys, now: now)
            for key in response.keys { shown[key] = nil }
            writeAnswers(response.keys, at: now)
        case .dismissed:
            try store.ledger.dismiss(response.keys, now: now)
            for key in response.keys { shown[key] = nil }
            writeAnswers(response.keys, at: now)
        }
        onEvent?(.responded(response))
    }

    /// Snoozes the keys here and in their items for other devices (``EventStore/snoozeAlarms(_:until:at:identity:zone:defaults:includingMissed:)``).
    /// When the item cannot be written (a store fault other than the ledger's), the snooze stays here.
    private func snoozeEverywhere(_ keys: [FiringKey], until: Instant, now: Instant) throws(StoreError) -> [EventStore.SnoozeRecord] {
        do {
            return try store.snoozeAlarms(keys, until: until, at: now, identity: agenda.defaults.identity, zone: zone, defaults: agenda.defaults)
        } catch let error as StoreError {
            throw error
        } catch {
            logger.warning("could not write the snooze into the item: \(error)", metadata: ["keys": "\(keys)"])
            let snoozed = try store.ledger.entries(for: keys).values.filter { $0.state == .snoozed }.map(\.key)
            return Dictionary(grouping: snoozed, by: \.item).map { EventStore.SnoozeRecord(item: $0.key, record: nil, snoozed: $0.value, ringsAgain: $0.value) }
        }
    }

    /// Writes the answer into each answered item, so that other devices and clients stop ringing
    /// it after their next sync (``EventStore/recordAlarmAnswer(item:alarms:at:identity:)``). An
    /// answer marks every earlier instance of the item answered: while another of its alarms is
    /// still on screen or snoozed here, the answer stays local. Best effort: the ledger already
    /// holds the answer here, so a failure is logged.
    private func writeAnswers(_ keys: [FiringKey], at now: Instant) {
        guard !keys.isEmpty else { return }
        // Who the user is, as the agenda was built with it (read at start and at each rebuild).
        let identity = agenda.defaults.identity
        for (item, answered) in Dictionary(grouping: keys, by: \.item) {
            if shown.keys.contains(where: { $0.item == item }) {
                logger.info("answer kept here: another alarm of the item is on screen or snoozed", metadata: ["item": "\(item)"])
                continue
            }
            do {
                let record = try store.recordAlarmAnswer(
                    item: item, alarms: Set(answered.map(\.alarm)), occurrences: Set(answered.map(\.occurrence)),
                    at: now, identity: identity)
                logger.info("answer recorded", metadata: ["item": "\(item)", "where": "\(record)"])
            } catch {
                logger.warning("could not write the answer into the item: \(error)", metadata: ["item": "\(item)"])
            }
        }
    }

    /// Opens the URL of each notification the keys stand for (once per URL). The URL was checked
    /// when the notification was made; it is checked again here, so nothing but http, https and
    /// mailto ever reaches the opener, whatever built the notification.
    private func openURLs(of keys: [FiringKey]) {
        guard let opener else { return }
        var opened: Set<String> = []
        for key in keys {
            guard let url = OpenableURL.check(shown[key]?.openURL), opened.insert(url).inserted else { continue }
            do {
                try opener.open(url)
                logger.info("opened the item's URL", metadata: ["key": "\(key)", "url": "\(url)"])
            } catch {
                logger.warning("could not open the item's URL", metadata: ["url": "\(url)", "error": "\(error)"])
            }
        }
    }

    /// Shows, in a notification of its own, each item whose activated notification had no URL to
    /// open (once per item): "Show" then means what it says. Best effort: a failure is logged.
    private func showDetails(of keys: [FiringKey]) {
        var done: Set<String> = []
        for key in keys {
            guard let note = shown[key], OpenableURL.check(note.openURL) == nil, note.kind != "missed",
                done.insert(key.item).inserted
            else { continue }
            do {
                let item = try store.calendarItem(withIdentifier: key.item)
                let calendarID: String? =
                    switch item {
                    case .event(let e)?: e.calendarIdentifier
                    case .reminder(let r)?: r.calendarIdentifier
                    case nil: nil
                    }
                let calendarTitle = try calendarID.flatMap { try store.calendar(withIdentifier: $0)?.title }
                let details = NotificationText.details(of: note, item: item, calendarTitle: calendarTitle, zone: zone)
                try sink.deliver(details, deliveredAtMilliseconds: clock.nowMilliseconds())
                logger.info("showed the item", metadata: ["key": "\(key)"])
                onEvent?(.delivered(details, deliveredAtMilliseconds: clock.nowMilliseconds()))
            } catch {
                logger.warning("could not show the item", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
    }

    /// The due instant of the reminder instance a firing belongs to: known for alarms relative to
    /// the due date (their key's occurrence); nil (the current instance) for absolute and
    /// location alarms, whose key carries no due date.
    static func dueInstant(of key: FiringKey) -> Instant? {
        guard let offset = key.alarm.split(separator: "/").first, Int64(offset) != nil else { return nil }
        return key.occurrence
    }

    /// A snoozed entry from an earlier run: rebuild its notification from the item, if it still exists.
    private func restoredNotification(_ entry: LedgerEntry) throws(StoreError) -> AlarmNotification {
        let summary: ItemSummary
        var end: Instant?
        let stored = try store.calendarItem(withIdentifier: entry.key.item)
        switch stored {
        case .event(let e)?:
            summary = ItemSummary(e)
            end = entry.key.occurrence.adding(e.durationSeconds(floatingZone: zone))
        case .reminder(let r)?: summary = ItemSummary(r)
        case nil: summary = ItemSummary(identifier: entry.key.item, kind: .reminder, title: entry.title)
        }
        // A location alarm's key names its place: show "Arrived: …" again, not a plain reminder.
        let alarm = (stored?.alarms ?? []).first { $0.trigger.locationKeyText == entry.key.alarm } ?? .absolute(entry.fireAt)
        let firing = AlarmFiring(
            key: entry.key, fireAt: entry.fireAt, alarm: alarm, item: summary,
            occurrenceStart: entry.key.occurrence, occurrenceEnd: end)
        return notification(firing)
    }
}

/// What the scheduler did, in order (``AlarmScheduler/onEvent``).
public enum SchedulerEvent: Sendable {
    case delivered(AlarmNotification, deliveredAtMilliseconds: Int64)
    case deliveryFailed(AlarmNotification, String)
    case missed([FiringKey])
    case rescheduled(Set<String>, next: Instant?)
    /// Shown or snoozed alarms whose item was completed, removed, cancelled or moved.
    case withdrawn([FiringKey])
    case clockChanged(Instant)
    case responded(NotificationResponse)
    /// An item's command was allowed and started for this firing.
    case commandStarted(FiringKey, CommandRequest)
    /// An item's command was not started: not in the allow-list, or it could not be started.
    case commandRefused(FiringKey, name: String, reason: String)
}
