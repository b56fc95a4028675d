import ChimeCore

/// Turns firings into what a notification says: summary = the item's title; body = when (on
/// the local wall clock), where, and the notes; urgency critical for high-priority reminders.
///
/// Item text comes from anywhere (an imported file can carry a 50 MB title or escape codes), so
/// it is cut to what notification servers display: the summary to one line of
/// ``summaryLimit`` characters, the body to ``bodyLineLimit`` lines and ``bodyLimit`` characters,
/// control characters removed. (Markup is escaped by the sink, per the server's capabilities.)
public enum NotificationText {
    /// GNOME Shell and KDE show one summary line; longer ones are cut anyway.
    public static let summaryLimit = 120
    /// About what GNOME Shell shows of an expanded body, and far below D-Bus's message limit.
    public static let bodyLimit = 1_000
    public static let bodyLineLimit = 12

    /// The notification for one firing.
    ///
    /// ```swift
    /// let note = NotificationText.notification(for: firing, zone: zone, snoozeChoices: [.minutes(10)])
    /// note.body   // "Tue 2026-12-01 14:00–15:00\nRoom 4"
    /// ```
    /// `invitation`: ``invitationLine(organizer:attendees:identity:)`` of the item, when it is one.
    /// `messages`: the user's language (``Messages/english`` by default).
    public static func notification(
        for firing: AlarmFiring, zone: ZoneRules, snoozeChoices: [SnoozeChoice],
        sounds: AlarmSounds = AlarmSounds(), invitation: String? = nil,
        messages: Messages = .english
    ) -> AlarmNotification {
        let item = firing.item
        var lines: [String] = [when(firing, zone: zone, messages: messages)]
        if let invitation { lines.append(invitation) }
        if let location = item.location, !location.isEmpty { lines.append(location) }
        if let notes = item.notes, !notes.isEmpty { lines.append(notes) }
        if firing.coalescedCount > 0 {
            lines.append(
                messages.plural(
                    "Repeats within a minute: {count} more since the last alert",
                    "Repeats within a minute: {count} more since the last alert", count: firing.coalescedCount))
        }
        let actions: [AlarmNotification.Action] =
            (item.kind == .reminder ? [.default, .complete] : [.default])
            + snoozeChoices.map { .snooze($0) }
        var note = AlarmNotification(
            keys: [firing.key], fireAt: firing.fireAt, summary: fitted(summary(firing, messages: messages), characters: summaryLimit, lines: 1),
            body: fitted(lines.joined(separator: "\n"), characters: bodyLimit, lines: bodyLineLimit),
            urgency: item.isHighPriority ? .critical : .normal, category: "x-chime.\(item.kind.rawValue)",
            actions: actions, kind: item.kind.rawValue, openURL: OpenableURL.check(item.url),
            soundName: sounds.sound(for: firing.alarm), references: [ReferenceText.text(firing, zone: zone)])
        note.labelActions(messages)
        return note
    }

    /// What an invitation's notification says of it: who sent it and who else comes (not those
    /// who declined), e.g. "Invitation from Bob Stone; with Cy Dee, Room 4.1 and 2 more". Nil when
    /// the item names no organizer, or the user organises it.
    ///
    /// ```swift
    /// NotificationText.invitationLine(organizer: bob, attendees: [me, cy], identity: Identity(["me@example.org"]))
    /// // "Invitation from Bob Stone; with Cy Dee"
    /// ```
    public static func invitationLine(
        organizer: Participant?, attendees: [Participant], identity: Identity,
        messages: Messages = .english
    ) -> String? {
        guard let organizer, !organizer.isCurrentUser(identity) else { return nil }
        func shown(_ p: Participant) -> String {
            let name = p.name.map(DisplayText.singleLine) ?? ""
            return name.isEmpty ? p.shownAddress : name
        }
        let sender = Identity([organizer.address])
        let others = attendees.filter { !$0.isCurrentUser(identity) && !$0.isCurrentUser(sender) && $0.status != .declined }.map(shown)
        guard !others.isEmpty else { return messages("Invitation from {organizer}", ["organizer": shown(organizer)]) }
        let named =
            others.count <= 3
            ? others
            : Array(others.prefix(3)) + [messages.plural("{count} more", "{count} more", count: others.count - 3)]
        let list =
            named.count == 1
            ? named[0]
            : messages(
                "{list} and {last}", context: "a list of names",
                [
                    "list": named.dropLast().joined(separator: messages(", ", context: "between names")),
                    "last": named.last!
                ])
        return messages("Invitation from {organizer}; with {others}", ["organizer": shown(organizer), "others": list])
    }

    /// The item's title; for a location alarm "Arrived: Grocery store — Buy milk" or
    /// "Left: Office — Call mum".
    static func summary(_ firing: AlarmFiring, messages: Messages = .english) -> String {
        guard case .location(let place, let proximity) = firing.alarm.trigger else { return DisplayText.itemTitle(firing.item.title) }
        let placeName = place.title.isEmpty ? Coordinate(latitude: place.latitude, longitude: place.longitude).description : place.title
        let values: KeyValuePairs = ["place": placeName, "title": DisplayText.itemTitle(firing.item.title)]
        return proximity == .enter ? messages("Arrived: {place} — {title}", values) : messages("Left: {place} — {title}", values)
    }

    /// One notification for several firings caught up at once: "You missed 5 alarms".
    public static func missedSummary(
        _ firings: [AlarmFiring], zone: ZoneRules, listing limit: Int = 10,
        messages: Messages = .english
    ) -> AlarmNotification {
        var lines = firings.prefix(limit).map { f in
            let local = zone.localTime(at: f.fireAt)
            return "\(messages.dayHeading(local.date)) \(DisplayText.hhmm(local))  \(fitted(DisplayText.itemTitle(f.item.title), characters: 60, lines: 1))"
        }
        if firings.count > limit { lines.append(messages.plural("… and {count} more", "… and {count} more", count: firings.count - limit)) }
        var note = AlarmNotification(
            keys: firings.map(\.key), fireAt: firings.map(\.fireAt).min() ?? Instant(secondsSince1970: 0),
            summary: messages.plural("You missed {count} alarm", "You missed {count} alarms", count: firings.count),
            body: lines.joined(separator: "\n"),
            urgency: firings.contains { $0.item.isHighPriority } ? .critical : .normal, category: "x-chime.missed",
            actions: [.default], kind: "missed", references: firings.map { ReferenceText.text($0, zone: zone) })
        note.labelActions(messages)
        return note
    }

    /// The item behind `note`, in full, for a notification of its own: what activating an alarm's
    /// notification without a URL shows ("Show"). Its body is the occurrence's time, then the item's
    /// calendar, location, notes, URL (as text: only ``OpenableURL`` ones are ever opened) and ID,
    /// which `chime show` and `chime edit` take. It carries no keys and no buttons.
    ///
    /// ```swift
    /// let details = NotificationText.details(of: note, item: try store.calendarItem(withIdentifier: id),
    ///                                        calendarTitle: "Work", zone: zone)
    /// details.body   // "Tue 2026-12-01 14:00–15:00\nCalendar: Work\nLocation: Room 4\nID: 6f1c…"
    /// ```
    public static func details(
        of note: AlarmNotification, item: AnyCalendarItem?, calendarTitle: String?,
        zone: ZoneRules
    ) -> AlarmNotification {
        let when = note.body.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var lines = [when]
        if let calendarTitle { lines.append("Calendar: \(calendarTitle)") }
        if let item {
            let base: any CalendarItem =
                switch item {
                case .event(let e): e;
                case .reminder(let r): r
                }
            if let location = base.location, !location.isEmpty { lines.append("Location: \(location)") }
            if case .reminder(let r) = item, r.priority > 0 { lines.append("Priority: \(r.priority)") }
            if let url = base.url, !url.isEmpty { lines.append("URL: \(url)") }
            if let notes = base.notes, !notes.isEmpty { lines.append("Notes: \(notes)") }
            lines.append("ID: \(item.identifier)")
        } else {
            lines.append("(the item was deleted since)")
        }
        return AlarmNotification(
            keys: [], fireAt: note.fireAt, summary: note.summary,
            body: fitted(lines.joined(separator: "\n"), characters: 2 * bodyLimit, lines: 3 * bodyLineLimit),
            urgency: .low, category: "x-chime.details", actions: [], kind: AlarmNotification.detailsKind)
    }

    /// `text` without control characters (line breaks kept when `lines` > 1), at most `lines`
    /// lines and `characters` characters, an ellipsis where it was cut.
    ///
    /// ```swift
    /// NotificationText.fitted("Lunch\u{1B}[31m\nnow", characters: 120, lines: 1)   // "Lunch[31m now"
    /// ```
    public static func fitted(_ text: String, characters: Int, lines: Int) -> String {
        var result = ""
        var count = 0, lineCount = 1, cut = false
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            var c = scalar
            switch DisplayText.role(of: scalar) {
            case .dropped: continue
            case .tab: c = " "
            case .lineBreak:
                if scalar == "\n" && previous == "\r" { continue }  // CRLF is one break
                if lines > 1 {
                    if lineCount == lines { cut = true; break }
                    lineCount += 1
                    c = "\n"
                } else {
                    c = " "
                }
            case .kept: break
            }
            if cut { break }
            if count == characters { cut = true; break }
            result.unicodeScalars.append(c)
            count += 1
        }
        guard cut else { return result }
        while result.last?.isWhitespace == true { result.removeLast() }
        return result + "…"
    }

    /// `Tue 2026-12-01 14:00–15:00`, `Due Tue 2026-12-01 17:00`, `All day Tue 2026-12-01`.
    static func when(_ firing: AlarmFiring, zone: ZoneRules, messages: Messages = .english) -> String {
        let day = messages.dayHeading
        guard let start = firing.occurrenceStart else {
            let at = zone.localTime(at: firing.fireAt)
            return "\(day(at.date)) \(DisplayText.hhmm(at))"
        }
        let local = zone.localTime(at: start)
        switch (firing.item.kind, firing.item.isAllDay) {
        case (.event, true): return messages("All day {day}", ["day": day(local.date)])
        case (.reminder, true): return messages("Due {day}", ["day": day(local.date)])
        case (.reminder, false): return messages("Due {day} {time}", ["day": day(local.date), "time": DisplayText.hhmm(local)])
        case (.event, false):
            var text = "\(day(local.date)) \(DisplayText.hhmm(local))"
            if let end = firing.occurrenceEnd, end > start {
                let localEnd = zone.localTime(at: end)
                text += "–" + (localEnd.date == local.date ? "" : day(localEnd.date) + " ") + DisplayText.hhmm(localEnd)
            }
            return text
        }
    }
}
