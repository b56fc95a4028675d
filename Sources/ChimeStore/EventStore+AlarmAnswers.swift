import ChimeCore

extension EventStore {
    /// Where an answer given on this machine was written (``recordAlarmAnswer(item:alarms:at:identity:)``).
    public enum AnswerRecord: Equatable, Sendable {
        /// Written into the item: `ACKNOWLEDGED` on each answered VALARM, `X-MOZ-LASTACK` on the
        /// item, which the next sync pushes like any edit.
        case written
        /// Kept on this machine only: the calendar is read-only or a subscription.
        case readOnlyCalendar
        /// Kept on this machine only: an invitation organised by someone else (servers refuse the
        /// change, or send notices to the organiser).
        case notOrganizer
        /// The item is gone.
        case unknownItem
    }

    /// Writes that this machine answered (dismissed) alarms of an item, in the forms other
    /// devices and clients read (``AlarmAnswers``): `ACKNOWLEDGED:<at>` on each VALARM whose
    /// trigger is among `alarms` (``FiringKey/alarm``), and `X-MOZ-LASTACK:<at>` on the item (a
    /// series' master, never a new override); Thunderbird snoozes due by then are dropped. An
    /// occurrence among `occurrences` that was changed on its own (a detached row) has its own
    /// alarms acknowledged too. Nothing else changes: not the SEQUENCE (an answer is no change of
    /// the meeting).
    ///
    /// ```swift
    /// try store.recordAlarmAnswer(item: key.item, alarms: [key.alarm], at: now, identity: me)   // .written
    /// ```
    @discardableResult
    public func recordAlarmAnswer(
        item identifier: String, alarms: Set<String>, occurrences: Set<Instant> = [], at: Instant,
        identity: Identity
    ) throws -> AnswerRecord {
        guard let item = try calendarItem(withIdentifier: identifier) else { return .unknownItem }
        if let calendar = item.base.calendarIdentifier, try self.calendar(withIdentifier: calendar)?.allowsModifications == false {
            return .readOnlyCalendar
        }
        if let organizer = item.base.organizer, !identity.contains(organizer.address) { return .notOrganizer }
        let stamp = at.utcBasicFormat
        func answer(_ extras: inout [String], _ itemAlarms: inout [Alarm]) {
            for index in itemAlarms.indices where itemAlarms[index].trigger.keyText.map(alarms.contains) == true {
                Self.setLine("ACKNOWLEDGED", to: stamp, in: &itemAlarms[index].icsExtras)
            }
            Self.setLine("X-MOZ-LASTACK", to: stamp, in: &extras)
            let dueSnoozes = AlarmAnswers.mozillaSnoozeLines(in: extras, dueBy: at)
            extras.removeAll { dueSnoozes.contains($0) }
        }
        switch item {
        case .event:
            // The series' own row, read and written in one transaction: never through an
            // occurrence (a first occurrence changed on its own would be written over the series).
            let found: Bool = try write { db, now in
                guard var master = try Self.fetchMaster(db, identifier) else { return false }
                var masterAlarms = master.alarms
                answer(&master.icsExtras, &masterAlarms)
                master.alarms = masterAlarms
                Self.markModified(&master, at: now)
                try ItemRows.upsert(
                    master, rowID: master.identifier, series: nil, created: master.creationDate ?? now,
                    modified: now, in: db)
                // A changed occurrence of its own rings with its own alarms: they are answered there too.
                let detachedIDs =
                    occurrences.isEmpty
                    ? []
                    : try String.fetchAll(
                        db, sql: "SELECT id FROM item WHERE series_id = ?",
                        arguments: [master.identifier])
                for rowID in detachedIDs {
                    guard let row = try ItemRows.fetchRow(db, id: rowID) else { continue }
                    var detached = try ItemRows.event(row, alarms: try AlarmRows.fetch(db, itemFilter: "?", arguments: [rowID])[rowID] ?? [])
                    // Named by the start it replaced, or (as its alarms' firings name it) by its own.
                    guard let scheduled = detached.occurrenceDate ?? (row[ItemColumns.recurrenceID] as Int64?).map(Instant.init(secondsSince1970:)),
                        occurrences.contains(scheduled) || occurrences.contains(detached.start.instant(floatingZone: floatingZone))
                    else { continue }
                    for index in detached.alarms.indices where detached.alarms[index].trigger.keyText.map(alarms.contains) == true {
                        Self.setLine("ACKNOWLEDGED", to: stamp, in: &detached.alarms[index].icsExtras)
                    }
                    Self.markModified(&detached, at: now)
                    try ItemRows.upsert(
                        detached, rowID: rowID, series: (master.identifier, scheduled), created: detached.creationDate ?? now,
                        modified: now, in: db)
                }
                try Journal.record(db, .event, master.identifier, .updated)
                return true
            }
            guard found else { return .unknownItem }
        case .reminder:
            do {
                try modifyReminder(identifier: identifier) { r in
                    var reminderAlarms = r.alarms
                    answer(&r.icsExtras, &reminderAlarms)
                    r.alarms = reminderAlarms
                }
            } catch StoreError.unknownItem {
                return .unknownItem
            }
        }
        return .written
    }

    /// Replaces the first `name` line (and drops any further ones) with `name:value`, or appends it.
    static func setLine(_ name: String, to value: String, in lines: inout [String]) {
        let line = name + ":" + value
        func isName(_ l: String) -> Bool {
            l.count > name.count && l.prefix(name.count).uppercased() == name && [":", ";"].contains(l.dropFirst(name.count).first)
        }
        guard let first = lines.firstIndex(where: isName) else {
            lines.append(line)
            return
        }
        lines[first] = line
        var index = lines.index(after: first)
        while index < lines.endIndex {
            if isName(lines[index]) { lines.remove(at: index) } else { index = lines.index(after: index) }
        }
    }
}
