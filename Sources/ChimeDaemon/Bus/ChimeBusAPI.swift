import ChimeCore
import ChimeDesktop
import ChimeFormat
import ChimeLanguage
import ChimeScheduler
import ChimeStore
import Foundation
import Synchronization

/// The daemon's D-Bus interface `io.github.chime.Chime1` (docs/dbus.md): every call is checked
/// against the caller's access for the entity type it touches, then answered from the store with
/// the JSON the command line prints with `--json`. Signals go to subscribed connections one by
/// one, and only with what each is allowed to see at that moment.
final class ChimeBusAPI: DaemonBusAPI {
    let store: EventStore
    /// The daemon's alarm settings (its configuration's `[alarms]`), which decide what `UpcomingAlarms` lists.
    let alarmDefaults: AlarmDefaults
    var interfaceXML: String { Self.introspectionXML }
    private let state = Mutex(State())

    private struct State {
        var service: BusService?
        /// The daemon's notification sink, which puts access questions on screen beside the alarms.
        var sink: (any NotificationSink)?
        var respond: (@Sendable (NotificationResponse) -> Void)?
        /// Subscribed connections (unique name → caller).
        var subscribers: [String: BusCaller] = [:]
        /// Open prompts by their number (the last part of their handle), and the same by app and
        /// entity type (one prompt each). A prompt is recorded before its question is shown, so an
        /// answer can never arrive for a prompt not yet known.
        var prompts: [Int: Prompt] = [:]
        var promptKeys: [String: Int] = [:]
        var nextHandle = 1
        /// When prompts were shown, overall and per app (for the rate limits).
        var promptTimes: [Int64] = []
        var promptTimesByApp: [String: [Int64]] = [:]
        /// The firing keys this daemon showed (key text → when), which Snooze and Dismiss may answer.
        var shownKeys: [String: Int64] = [:]
        /// When each app's use was last written (at most once a minute, so reads stay reads).
        var lastNoted: [String: Int64] = [:]
    }

    private struct Prompt {
        let handle: String
        let app: AppIdentity
        let entity: EntityType
        let askedAt: Int64
        var waiters: Set<String>
        /// The sink's id of the question on screen, once shown.
        var question: Int?
    }

    /// A question left unanswered this long is withdrawn and asked anew: a notification server
    /// that restarted forgets it without a word, and a request must never wait on it for ever.
    static let promptLifetimeSeconds: Int64 = 300
    /// Prompts are a door any local program can knock on (asking needs no access, and an identity
    /// costs a hard link): at most one on screen at a time, at most this many per app and overall
    /// in ``promptWindowSeconds``, shown at normal urgency and expiring, so that the notification
    /// server is never wedged by them and an alarm never waits behind one.
    static let promptsPerApp = 3, promptsOverall = 10
    static let promptWindowSeconds: Int64 = 600
    static let busy = errorPrefix + "Busy"
    /// How many shown firing keys are remembered for Snooze and Dismiss.
    static let shownKeysKept = 10_000

    init(
        store: EventStore, alarmDefaults: AlarmDefaults = AlarmDefaults(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.store = store
        self.alarmDefaults = alarmDefaults
        let locale = LocaleEnvironment(environment)
        let catalog = MessageCatalog(locale: locale.messages)
        datePhrases = DatePhrases(catalog: catalog)
        messages = Messages(catalog: catalog, time: locale.time.map { MessageCatalog(locale: $0) })
    }

    /// The date words and the texts (access questions) of the daemon's language (its
    /// environment's, as the session gave it): read once, the environment being the process's
    /// for its whole life.
    private let datePhrases: DatePhrases
    private let messages: Messages

    func attach(_ service: BusService, sink: any NotificationSink, respond: @escaping @Sendable (NotificationResponse) -> Void) {
        state.withLock {
            $0.service = service
            $0.sink = sink
            $0.respond = respond
        }
    }

    // MARK: Calls

    func handle(_ method: String, _ arguments: [BusValue], from caller: BusCaller) async throws(BusError) -> [BusValue] {
        do {
            switch (method, arguments.first, arguments.dropFirst().first) {
            case ("GetAuthorizationStatus", .string(let type)?, nil):
                return [.string(try status(caller, try entity(type)).rawValue)]
            case ("RequestAccess", .string(let type)?, nil):
                return try await requestAccess(caller, try entity(type))
            case ("Subscribe", nil, nil):
                _ = try allowedTypes(caller)
                state.withLock { $0.subscribers[caller.uniqueName] = caller }
                return [.uint64(UInt64(max(0, try store.currentChangeSequence())))]
            case ("Changes", .uint64(let after)?, nil):
                // What a client missed since the sequence it last saw (a Changed signal's, or Subscribe's).
                let types = try allowedTypes(caller)
                let set = try store.changeSet(after: Int64(clamping: after))
                let calendarTypes = try calendarEntityTypes()
                let visible = set.changes.filter { change in
                    // A calendar no longer known (removed) counts for both kinds, as in the Changed signal.
                    change.entity == .calendar
                        ? calendarTypes[change.identifier].map(types.contains) ?? true
                        : types.contains(change.entity == .event ? .event : .reminder)
                }
                return [
                    .string(
                        JSONText.document([
                            ("last_sequence", "\(set.lastSequence)"), ("truncated", set.isTruncated ? "true" : "false"),
                            (
                                "changes",
                                JSONText.array(
                                    visible.map { c in
                                        JSONText.object([
                                            ("sequence", "\(c.sequence)"), ("entity", JSONText.string(c.entity.rawValue)),
                                            ("id", JSONText.string(c.identifier)), ("kind", JSONText.string(c.kind.rawValue))
                                        ])
                                    })
                            )
                        ]))
                ]
            case ("Unsubscribe", nil, nil):
                state.withLock { _ = $0.subscribers.removeValue(forKey: caller.uniqueName) }
                return []
            case ("Calendars", nil, nil):
                let types = try allowedTypes(caller)
                return [.string(try ItemFormat.calendarsDocument(store, of: EntityType.allCases.filter(types.contains)))]
            case ("Events", .int64(let start)?, .int64(let end)?):
                try require(caller, .event)
                try Self.checkWindow(start, end)
                var out = OutputBuffer(toStandardOutput: false)
                try AgendaWriter.render(
                    store, window: (Instant(secondsSince1970: start), Instant(secondsSince1970: end)),
                    calendars: nil, json: true, zone: SystemZone.current(), identity: identity(), into: &out)
                return [.string(out.pendingText)]
            case ("Reminders", .bool(let completed)?, nil):
                try require(caller, .reminder)
                let predicate =
                    completed
                    ? store.predicateForCompletedReminders(completionStart: nil, completionEnd: nil, calendars: nil)
                    : store.predicateForIncompleteReminders(dueStart: nil, dueEnd: nil, calendars: nil)
                let titles = try calendarTitles(.reminder)
                let found = try store.reminders(matching: predicate)
                let identity = identity(), zone = SystemZone.current()
                return [
                    .string(
                        JSONText.document([
                            (
                                "reminders",
                                JSONText.array(
                                    found.map {
                                        ItemFormat.json(
                                            .reminder($0), calendarTitle: $0.calendarIdentifier.flatMap { titles[$0] }, zone: zone, identity: identity)
                                    })
                            )
                        ]))
                ]
            case ("Item", .string(let reference)?, nil):
                let item = try resolve(reference, caller)
                return [.string(json(item, titles: try calendarTitles(item.entityType)))]
            case ("UpcomingAlarms", .uint32(let hours)?, nil):
                let types = try allowedTypes(caller)
                guard (1...Int64(ValueBounds.hours.upperBound)).contains(Int64(hours)) else {
                    throw BusError(Self.invalidArgs, "hours must be 1…\(ValueBounds.hours.upperBound), not \(hours)")
                }
                let now = store.clock(), zone = SystemZone.current()
                let listing = try AlarmListing(
                    store, zone: zone, from: now, to: now.adding(Int64(hours) * 3600),
                    defaults: try store.alarmDefaults(alarmDefaults))
                let firings = listing.firings.filter { types.contains($0.item.kind == .event ? .event : .reminder) }
                let armed = listing.armed.filter { types.contains($0.item.kindName == "event" ? .event : .reminder) }
                var out = OutputBuffer(toStandardOutput: false)
                AlarmsWriter(zone: zone).json(firings, states: listing.states, armed: armed, to: &out)
                return [.string(out.pendingText)]
            case ("AddEvent", .fields(let fields)?, nil):
                try require(caller, .event)
                return [.string(try addEvent(fields))]
            case ("AddReminder", .fields(let fields)?, nil):
                try require(caller, .reminder)
                return [.string(try addReminder(fields))]
            case ("Remove", .string(let reference)?, .string(let spanText)?):
                guard let span = SpanArgument(rawValue: spanText) else {
                    throw BusError(Self.invalidArgs, "span must be \"this\" or \"future\", not \"\(spanText)\"")
                }
                let parsed = try ItemReference(reference)
                switch try resolve(reference, caller) {
                case .event(var e):
                    if parsed.occurrence == nil { e.occurrenceDate = nil }
                    try store.remove(e, span: span.span)
                case .reminder(let r): try store.remove(r)
                }
                return []
            case ("Edit", .string(let reference)?, .fields(let fields)?):
                guard case .string(let spanText)? = arguments.dropFirst(2).first, let span = SpanArgument(rawValue: spanText) else {
                    throw BusError(Self.invalidArgs, "span must be \"this\" or \"future\"")
                }
                return [.string(try edit(reference, fields, span: span.span, caller))]
            case ("Snooze", .string(let key)?, .string(let choiceText)?):
                let choice: SnoozeChoice? = choiceText.isEmpty ? nil : try SnoozeChoice(parsing: choiceText)
                try answer(key, NotificationResponse(keys: [], kind: .snooze, snooze: choice), caller)
                return []
            case ("Dismiss", .string(let key)?, nil):
                try answer(key, NotificationResponse(keys: [], kind: .dismissed), caller)
                return []
            case ("Complete", .string(let reference)?, nil), ("Uncomplete", .string(let reference)?, nil):
                return [.string(try complete(reference, done: method == "Complete", caller))]
            default:
                throw BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(method) with these arguments")
            }
        } catch let error as BusError {
            throw error
        } catch let error as StoreError {
            throw BusError(Self.failed, "\(error)")
        } catch {
            throw BusError(Self.invalidArgs, "\(error)")
        }
    }

    /// An `Events` window as the command line bounds its own: both ends dates a calendar can hold
    /// (years 0000–9999), end after start, at most ten years long ("window too large").
    static func checkWindow(_ start: Int64, _ end: Int64) throws(BusError) {
        let writable = ValueBounds.instants.lowerBound.secondsSince1970...ValueBounds.instants.upperBound.secondsSince1970
        guard writable.contains(start), writable.contains(end) else {
            throw BusError(
                invalidArgs,
                "the window must lie between 0000-01-01 and 9999-12-31 "
                    + "(seconds \(writable.lowerBound)…\(writable.upperBound) since 1970), not \(start)…\(end)")
        }
        guard end > start else { throw BusError(invalidArgs, "the window is empty: end must be after start") }
        let longest = Int64(ValueBounds.tenYearsInDays) * 86_400
        guard end - start <= longest else {
            throw BusError(invalidArgs, "window too large: \((end - start) / 86_400) days, at most \(ValueBounds.tenYearsInDays)")
        }
    }

    // MARK: Access

    static let errorPrefix = "io.github.chime.Chime1.Error."
    static let notAuthorized = errorPrefix + "NotAuthorized"
    static let invalidArgs = errorPrefix + "InvalidArgs"
    static let failed = errorPrefix + "Failed"
    static let noPrompt = errorPrefix + "NoPrompt"

    private func entity(_ text: String) throws(BusError) -> EntityType {
        switch text {
        case "event", "events": return .event
        case "reminder", "reminders": return .reminder
        default: throw BusError(Self.invalidArgs, "the entity type is \"event\" or \"reminder\", not \"\(text)\"")
        }
    }

    private func status(_ caller: BusCaller, _ entity: EntityType) throws -> AuthorizationStatus {
        try store.access.authorizationStatus(appID: caller.app.id, for: entity)
    }

    /// Throws the error that names what is missing unless the caller may use `entity`.
    private func require(_ caller: BusCaller, _ entity: EntityType) throws {
        let current = try status(caller, entity)
        guard current == .authorized else {
            throw BusError(
                Self.notAuthorized,
                "\(caller.app.id) has no access to \(entity.plural) (\(current.rawValue)); "
                    + "call RequestAccess(\"\(entity.rawValue)\"), or run: chime access grant \(caller.app.id) \(entity.plural)")
        }
        noteUse(caller, entity)
    }

    /// The entity types the caller may use; throws when there is none.
    private func allowedTypes(_ caller: BusCaller) throws -> Set<EntityType> {
        let types = Set(try EntityType.allCases.filter { try status(caller, $0) == .authorized })
        guard !types.isEmpty else {
            throw BusError(
                Self.notAuthorized,
                "\(caller.app.id) has no access to events or reminders; "
                    + "call RequestAccess(\"event\") or RequestAccess(\"reminder\") first")
        }
        for type in types { noteUse(caller, type) }
        return types
    }

    private func noteUse(_ caller: BusCaller, _ entity: EntityType) {
        let now = store.clock().secondsSince1970, key = "\(caller.app.id) \(entity.rawValue)"
        let due = state.withLock { s -> Bool in
            guard (s.lastNoted[key] ?? 0) < now - 60 else { return false }
            s.lastNoted[key] = now
            return true
        }
        if due { try? store.access.noteUsed(appID: caller.app.id, for: entity) }
    }

    /// Answers at once: the status, and when it is not determined, the handle whose `Response`
    /// signal brings the user's answer (a call never waits on a person: clients give up after 25 s).
    private func requestAccess(_ caller: BusCaller, _ entity: EntityType) async throws -> [BusValue] {
        let current = try status(caller, entity)
        guard current == .notDetermined else { return [.objectPath(ChimeBusName.objectPath + "/request/0"), .string(current.rawValue)] }
        let key = "\(caller.app.id) \(entity.rawValue)"
        // One prompt per app and entity type: a second request joins the open one.
        let now = store.clock().secondsSince1970
        let (joined, expired, sink) = state.withLock { s -> (String?, Int?, (any NotificationSink)?) in
            guard let number = s.promptKeys[key], var prompt = s.prompts[number] else { return (nil, nil, s.sink) }
            guard prompt.askedAt > now - Self.promptLifetimeSeconds else {
                s.prompts[number] = nil
                s.promptKeys[key] = nil
                return (nil, prompt.question, s.sink)
            }
            prompt.waiters.insert(caller.uniqueName)
            s.prompts[number] = prompt
            return (prompt.handle, nil, s.sink)
        }
        if let expired { sink?.withdrawQuestion(expired) }
        if let joined { return [.objectPath(joined), .string(current.rawValue)] }
        guard let sink else { throw BusError(Self.noPrompt, "the service is not ready") }
        let reserved = reservePrompt(key, caller: caller, entity: entity, now: now, sink: sink)
        guard case .success(let (number, handle)) = reserved else {
            if case .failure(let refusal) = reserved {
                throw BusError(Self.busy, refusal.message + "; or run: chime access grant \(caller.app.id) \(entity.plural)")
            }
            throw BusError(Self.busy, "ask again later")
        }
        let app = caller.app.displayName
        let identity = caller.processID.map { messages("{app} (process {pid})", ["app": caller.app.id, "pid": "\($0)"]) } ?? caller.app.id
        let question = UserQuestion(
            summary: entity == .event
                ? messages("Allow {app} to use your calendar events?", ["app": app])
                : messages("Allow {app} to use your reminders?", ["app": app]),
            body: entity == .event
                ? messages(
                    "An app asks Chime to see and change your calendar events. It is identified as {identity}. You can change this later with chime access.",
                    ["identity": identity])
                : messages(
                    "An app asks Chime to see and change your reminders. It is identified as {identity}. You can change this later with chime access.",
                    ["identity": identity]),
            buttons: [
                .init(key: "allow", label: messages("Allow", context: "access button")),
                .init(key: "deny", label: messages("Don't Allow", context: "access button"))
            ],
            expirySeconds: Self.promptExpirySeconds)
        do {
            let id = try sink.ask(question) { [weak self] button in
                // Off the notification thread: the answer writes the store and signals the waiters.
                Task { self?.promptAnswered(number, button: button) }
            }
            let shown = state.withLock { s -> Bool in
                guard s.prompts[number] != nil else { return false }
                s.prompts[number]?.question = id
                return true
            }
            // Answered or dropped while it was being shown: take it off the screen.
            if !shown { sink.withdrawQuestion(id) }
        } catch {
            _ = takePrompt(number)
            throw BusError(
                Self.noPrompt,
                "the user cannot be asked: \(error.message); "
                    + "run: chime access grant \(caller.app.id) \(entity.plural)")
        }
        return [.objectPath(handle), .string(current.rawValue)]
    }

    /// How long a question stays on screen unanswered before the notification server closes it.
    static let promptExpirySeconds: Int32 = 240

    /// Records the one open prompt for `key` and returns its number and handle, or says why not (another
    /// question is on screen, or the app or everyone asked too often lately). Prompts past their
    /// lifetime are withdrawn first.
    private func reservePrompt(
        _ key: String, caller: BusCaller, entity: EntityType, now: Int64, sink: any NotificationSink
    ) -> Result<(number: Int, handle: String), BusError> {
        let app = caller.app.id
        let (outcome, stale) = state.withLock { s -> (Result<(number: Int, handle: String), BusError>, [Int]) in
            let staleNumbers = s.prompts.filter { $0.value.askedAt <= now - Self.promptLifetimeSeconds }.map(\.key)
            var stale: [Int] = []
            for number in staleNumbers {
                guard let p = s.prompts.removeValue(forKey: number) else { continue }
                s.promptKeys["\(p.app.id) \(p.entity.rawValue)"] = nil
                if let question = p.question { stale.append(question) }
            }
            if !s.prompts.isEmpty {
                return (.failure(BusError(Self.busy, "another question is waiting for the user's answer; ask again once it is answered")), stale)
            }
            let since = now - Self.promptWindowSeconds
            s.promptTimes.removeAll { $0 <= since }
            // Only apps that were shown a question lately are kept (at most promptsOverall of them):
            // a flood of identities that were refused leaves nothing behind.
            s.promptTimesByApp = s.promptTimesByApp.compactMapValues { times in
                let recent = times.filter { $0 > since }
                return recent.isEmpty ? nil : recent
            }
            if s.promptTimesByApp[app, default: []].count >= Self.promptsPerApp {
                return (
                    .failure(BusError(Self.busy, "\(app) asked \(Self.promptsPerApp) times in \(Self.promptWindowSeconds / 60) minutes; ask again later")),
                    stale
                )
            }
            if s.promptTimes.count >= Self.promptsOverall {
                return (
                    .failure(BusError(Self.busy, "apps asked \(Self.promptsOverall) times in \(Self.promptWindowSeconds / 60) minutes; ask again later")), stale
                )
            }
            s.promptTimes.append(now)
            s.promptTimesByApp[app, default: []].append(now)
            let number = s.nextHandle, handle = ChimeBusName.objectPath + "/request/\(number)"
            s.nextHandle += 1
            s.prompts[number] = Prompt(handle: handle, app: caller.app, entity: entity, askedAt: now, waiters: [caller.uniqueName])
            s.promptKeys[key] = number
            return (.success((number, handle)), stale)
        }
        for id in stale { sink.withdrawQuestion(id) }
        return outcome
    }

    /// The user clicked a button of a question, or it closed without one (nothing is decided then:
    /// the app may ask again).
    private func promptAnswered(_ number: Int, button: String?) {
        guard let prompt = takePrompt(number) else { return }
        let decision: AuthorizationStatus? = button == "allow" ? .authorized : button == "deny" ? .denied : nil
        guard let decision else { return answer(prompt, .notDetermined) }
        do {
            try store.access.setAuthorization(decision, appID: prompt.app.id, for: prompt.entity, decidedBy: "prompt")
            answer(prompt, decision)
        } catch {
            answer(prompt, .notDetermined)
        }
    }

    func busEvent(_ event: BusEvent) async {
        switch event {
        case .peerVanished(let name):
            // A client gone mid-request leaves nothing behind but the question on screen: the
            // user's answer is still kept for the app (its next run finds it).
            state.withLock { s in
                s.subscribers[name] = nil
                for (id, var prompt) in s.prompts where prompt.waiters.contains(name) {
                    prompt.waiters.remove(name)
                    s.prompts[id] = prompt
                }
            }
        case .connectionClosed:
            // The daemon takes the name again on a new connection: nothing may be sent on the old
            // one meanwhile, subscribers must subscribe anew, and questions asked on it are gone.
            let (sink, questions) = state.withLock { s -> ((any NotificationSink)?, [Int]) in
                let questions = s.prompts.values.compactMap(\.question)
                s.service = nil
                s.subscribers = [:]
                s.prompts = [:]
                s.promptKeys = [:]
                return (s.sink, questions)
            }
            for id in questions { sink?.withdrawQuestion(id) }
        }
    }

    private func takePrompt(_ number: Int) -> Prompt? {
        state.withLock { s in
            guard let prompt = s.prompts.removeValue(forKey: number) else { return nil }
            s.promptKeys["\(prompt.app.id) \(prompt.entity.rawValue)"] = nil
            return prompt
        }
    }

    private func answer(_ prompt: Prompt, _ status: AuthorizationStatus) {
        guard let service = state.withLock({ $0.service }) else { return }
        for waiter in prompt.waiters {
            service.emit("Response", [.objectPath(prompt.handle), .string(prompt.entity.rawValue), .string(status.rawValue)], to: waiter)
        }
    }

    // MARK: Signals

    func storeChanged(_ changes: ChangeSet) async {
        let (service, subscribers) = state.withLock { ($0.service, Array($0.subscribers.values)) }
        guard let service, !subscribers.isEmpty else { return }
        // A calendar's change counts for the entity type the calendar holds (a new reminder list is
        // news to reminder apps only); one no longer known (removed) counts for both.
        let calendarTypes = (try? calendarEntityTypes()) ?? [:]
        var touched = Set<String>()
        for change in changes.changes {
            if change.entity == .calendar {
                if let type = calendarTypes[change.identifier] {
                    touched.insert(type.rawValue)
                } else {
                    for type in EntityType.allCases { touched.insert(type.rawValue) }
                }
            } else {
                touched.insert(change.entity.rawValue)
            }
        }
        for subscriber in subscribers {
            // Access is read again at each signal: a revoked app hears nothing more.
            let allowed = EntityType.allCases.filter { (try? status(subscriber, $0)) == .authorized }
            let visible = allowed.map(\.rawValue).filter { touched.contains($0) }
            guard !visible.isEmpty || changes.isTruncated && !allowed.isEmpty else { continue }
            service.emit("Changed", [.uint64(UInt64(max(0, changes.lastSequence))), .strings(visible)], to: subscriber.uniqueName)
        }
    }

    func alarmDelivered(_ notification: AlarmNotification) {
        let now = store.clock().secondsSince1970
        let (service, subscribers) = state.withLock { s in
            for key in notification.keys { s.shownKeys[key.description] = now }
            if s.shownKeys.count > Self.shownKeysKept {
                // The oldest go first: a key is answerable for as long as an alarm stays relevant.
                for (key, _) in s.shownKeys.sorted(by: { $0.value < $1.value }).prefix(s.shownKeys.count - Self.shownKeysKept) {
                    s.shownKeys[key] = nil
                }
            }
            return (s.service, Array(s.subscribers.values))
        }
        guard let service, !subscribers.isEmpty else { return }
        let entity: EntityType? = notification.kind == "event" ? .event : notification.kind == "reminder" ? .reminder : nil
        let body = JSONText.document([
            ("refs", JSONText.stringArray(notification.references)),
            ("keys", JSONText.array(notification.keys.map { JSONText.string($0.description) })),
            ("fire", JSONText.string(notification.fireAt.description)),
            ("kind", JSONText.string(notification.kind)),
            ("summary", JSONText.string(notification.summary)),
            ("body", JSONText.string(notification.body))
        ])
        for subscriber in subscribers {
            let allowed = EntityType.allCases.filter { (try? status(subscriber, $0)) == .authorized }
            // "You missed N alarms" may cover both kinds: only for an app that may see both.
            guard entity.map(allowed.contains) ?? (allowed.count == EntityType.allCases.count) else { continue }
            service.emit("AlarmFired", [.string(body)], to: subscriber.uniqueName)
        }
    }

    // MARK: Firings

    /// Snooze or Dismiss for a firing `AlarmFired` named: handled by the scheduler as the
    /// notification's own button would be (nothing happens for a key that was not shown).
    private func answer(_ keyText: String, _ response: NotificationResponse, _ caller: BusCaller) throws {
        guard let key = FiringKey(parsing: keyText) else {
            throw BusError(Self.invalidArgs, "\"\(keyText)\" is not a firing key (ITEM@YYYYMMDDTHHMMSSZ#ALARM, as AlarmFired gives them)")
        }
        let types = try allowedTypes(caller)
        // An item the caller may not see is answered as one that does not exist.
        guard let item = try store.calendarItem(withIdentifier: key.item), types.contains(item.entityType) else {
            throw BusError(Self.invalidArgs, "no item \(key.item) (removed?)")
        }
        try require(caller, item.entityType)
        // Only what was shown can be answered: a made-up key is said to be one, not answered "OK".
        guard state.withLock({ $0.shownKeys[key.description] != nil }) else {
            throw BusError(
                Self.invalidArgs,
                "\(key) was not shown by this daemon (keys come from AlarmFired; "
                    + "an alarm shown before the daemon restarted is answered on its notification)")
        }
        guard let respond = state.withLock({ $0.respond }) else { throw BusError(Self.failed, "the scheduler is not running") }
        var keyed = response
        keyed.keys = [key]
        respond(keyed)
    }

    // MARK: Items

    /// Fields: `title`, `notes`, `location`, `url` (an empty value clears the last three), and for
    /// reminders `due` and `priority`; `span` applies to an occurrence of a repeating event.
    private func edit(_ reference: String, _ fields: [String: String], span: Span, _ caller: BusCaller) throws -> String {
        let parsed = try ItemReference(reference)
        let item = try resolve(reference, caller)
        let text: (String) -> String? = { fields[$0].flatMap { $0.isEmpty ? nil : $0 } }
        func common(_ i: inout some CalendarItem) throws {
            if let title = fields["title"] {
                guard !title.allSatisfy(\.isWhitespace) else { throw BusError(Self.invalidArgs, "the title cannot be empty") }
                i.title = title
            }
            if fields["notes"] != nil { i.notes = text("notes") }
            if fields["location"] != nil { i.location = text("location") }
            if fields["url"] != nil { i.url = text("url") }
        }
        switch item {
        case .event(let e):
            try checkFields(fields, allowed: ["title", "notes", "location", "url"])
            // Without @OCCURRENCE the whole series changes, as `chime edit` does.
            let saved = try store.modifyEvent(
                identifier: e.identifier, occurrence: parsed.occurrence?.instant(in: store.floatingZone),
                span: parsed.occurrence == nil ? .futureEvents : span
            ) { e in
                try common(&e)
                e.sequence += 1
            }
            return json(.event(saved), titles: try calendarTitles(.event))
        case .reminder(let r):
            try checkFields(fields, allowed: ["title", "notes", "location", "url", "due", "priority"])
            let due = try fields["due"].map { try inputContext().calendarDate($0, option: "due", tz: "floating") }
            let saved = try store.modifyReminder(identifier: r.identifier) { r in
                try common(&r)
                r.sequence += 1
                if let due { r.dueDate = due }
                if let text = fields["priority"] {
                    guard let priority = Int(text), (0...9).contains(priority) else { throw BusError(Self.invalidArgs, "priority is 0…9, not \"\(text)\"") }
                    r.priority = priority
                }
            }
            return json(.reminder(saved), titles: try calendarTitles(.reminder))
        }
    }

    /// Who the user is, for `is_current_user`: the configured addresses and the accounts' servers'.
    private func identity() -> Identity {
        ((try? store.alarmDefaults(alarmDefaults)) ?? alarmDefaults).identity
    }

    /// What dates in this call are read against: the daemon's clock and the zone of this moment
    /// (never the values of the daemon's first call: it runs for days, and the zone may change),
    /// and the date words of the daemon's language.
    private func inputContext() -> InputContext {
        InputContext(
            now: store.clock(), zone: SystemZone.current(),
            numericDateOrder: InputContext.numericDateOrder(environment: ProcessInfo.processInfo.environment),
            phrases: datePhrases)
    }

    /// The entity type each known calendar holds, by calendar identifier.
    private func calendarEntityTypes() throws -> [String: EntityType] {
        var types: [String: EntityType] = [:]
        for type in EntityType.allCases { for c in try store.calendars(for: type) { types[c.identifier] = type } }
        return types
    }

    private func calendarTitles(_ type: EntityType) throws -> [String: String] {
        var titles: [String: String] = [:]
        for c in try store.calendars(for: type) { titles[c.identifier] = c.title }
        return titles
    }

    /// The item document (`{"chime_json":1,"item":{…}}`), as the command line prints it.
    private func json(_ item: AnyCalendarItem, titles: [String: String]) -> String {
        ItemFormat.document(item, calendarTitle: item.base.calendarIdentifier.flatMap { titles[$0] }, zone: SystemZone.current(), identity: identity())
    }

    /// The item a reference names, once the caller is known to have access to its kind.
    private func resolve(_ reference: String, _ caller: BusCaller) throws -> AnyCalendarItem {
        let types = try allowedTypes(caller)
        // Only among what the caller may see: an events-only app learns nothing of reminders, not
        // even whether one with this ID or title exists.
        let kinds = Set(types.map { $0 == .event ? ItemReference.Kind.event : .reminder })
        let item = try ItemReference(reference).resolve(in: store, among: kinds)
        try require(caller, item.entityType)
        return item
    }

    private func complete(_ reference: String, done: Bool, _ caller: BusCaller) throws -> String {
        let parsed = try ItemReference(reference)
        guard case .reminder(let r) = try resolve(reference, caller) else {
            throw BusError(Self.invalidArgs, "\"\(reference)\" is an event; only reminders can be completed")
        }
        let titles = try calendarTitles(.reminder)
        if done {
            switch try store.complete(reminderWithIdentifier: r.identifier, dueAt: parsed.occurrence?.instant(in: store.floatingZone)) {
            case .alreadyCompleted(let r): throw BusError(Self.failed, "\"\(r.title)\" is already completed")
            case .completed(let r, _): return json(.reminder(r), titles: titles)
            }
        }
        switch try store.uncomplete(reminderWithIdentifier: r.identifier) {
        case .alreadyIncomplete(let r): throw BusError(Self.failed, "\"\(r.title)\" is already not completed")
        case .reopened(let saved): return json(.reminder(saved), titles: titles)
        }
    }

    /// Fields: `title` (required), `start` (required), `end` or `duration`, `all_day` ("true"),
    /// `calendar`, `notes`, `location`, `url`, `time_zone`; dates as the command line reads them.
    private func addEvent(_ fields: [String: String]) throws -> String {
        try checkFields(fields, allowed: ["title", "start", "end", "duration", "all_day", "calendar", "notes", "location", "url", "time_zone"])
        let title = try requiredTitle(fields)
        guard let startText = fields["start"] else { throw BusError(Self.invalidArgs, "an event needs a start (field \"start\")") }
        let target = try EventTarget.calendar(fields["calendar"], in: store, option: "calendar", sayingOtherKind: false)
        var event = try EventInput.event(
            title: title, start: startText, end: fields["end"], duration: fields["duration"],
            tz: fields["time_zone"], allDay: fields["all_day"] == "true", calendar: target.identifier,
            names: ("start", "end", "duration"), context: inputContext())
        event.notes = fields["notes"]
        event.location = fields["location"]
        event.url = fields["url"]
        return json(.event(try store.save(event)), titles: try calendarTitles(.event))
    }

    /// Fields: `title` (required), `due`, `start`, `list`, `notes`, `priority`, `time_zone`.
    private func addReminder(_ fields: [String: String]) throws -> String {
        try checkFields(fields, allowed: ["title", "due", "start", "list", "notes", "priority", "time_zone"])
        let title = try requiredTitle(fields)
        let target = try ReminderTarget.list(fields["list"], in: store, option: "list", sayingOtherKind: false)
        var reminder = Reminder(title: title, calendar: target.identifier)
        let tz = fields["time_zone"] ?? "floating"
        let context = inputContext()
        reminder.dueDate = try fields["due"].map { try context.calendarDate($0, option: "due", tz: tz) }
        reminder.startDate = try fields["start"].map { try context.calendarDate($0, option: "start", tz: tz) }
        reminder.notes = fields["notes"]
        if let text = fields["priority"] {
            guard let priority = Int(text), (0...9).contains(priority) else {
                throw BusError(Self.invalidArgs, "priority is 0…9, not \"\(text)\"")
            }
            reminder.priority = priority
        }
        return json(.reminder(try store.save(reminder)), titles: try calendarTitles(.reminder))
    }

    private func requiredTitle(_ fields: [String: String]) throws -> String {
        guard let title = fields["title"], !title.allSatisfy(\.isWhitespace) else {
            throw BusError(Self.invalidArgs, "a title is needed (field \"title\")")
        }
        return title
    }

    private func checkFields(_ fields: [String: String], allowed: Set<String>) throws {
        let unknown = fields.keys.filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw BusError(
                Self.invalidArgs,
                "unknown field\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")); "
                    + "known: \(allowed.sorted().joined(separator: ", "))")
        }
    }
}
