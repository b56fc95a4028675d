import ChimeCore
import Foundation

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

    /// Writes that this machine answered (dismissed, or snoozed until `snoozeUntil`) alarms of an
    /// item, in the forms other devices and clients read (``AlarmAnswers/answer(alarms:extras:answering:at:snooze:)``):
    /// `ACKNOWLEDGED:<at>` on each VALARM whose trigger is among `alarms` (``FiringKey/alarm``),
    /// `X-MOZ-LASTACK:<at>` on the item (a series' master, never a new override), and for a
    /// snooze an RFC 9074 snooze alarm with `X-MOZ-SNOOZE-TIME[-µs]`. An
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
        identity: Identity, snoozeUntil: Instant? = nil
    ) throws -> AnswerRecord {
        guard let item = try calendarItem(withIdentifier: identifier) else { return .unknownItem }
        if let calendar = item.base.calendarIdentifier, try self.calendar(withIdentifier: calendar)?.allowsModifications == false {
            return .readOnlyCalendar
        }
        if let organizer = item.base.organizer, !identity.contains(organizer.address) { return .notOrganizer }
        let isSeries: Bool
        if case .event(let event) = item { isSeries = event.isRecurring } else { isSeries = item.base.hasRecurrenceRules }
        let snooze = snoozeUntil.map { until in
            AlarmAnswers.SnoozeWrite(until: until, occurrences: occurrences, isSeries: isSeries) { UUID().uuidString }
        }
        func answer(_ extras: inout [String], _ itemAlarms: inout [Alarm]) {
            AlarmAnswers.answer(alarms: &itemAlarms, extras: &extras, answering: alarms, at: at, snooze: snooze)
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
                        AlarmAnswers.setLine("ACKNOWLEDGED", to: at.utcBasicFormat, in: &detached.alarms[index].icsExtras)
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
}

extension EventStore {
    /// What ``snoozeAlarms(_:until:at:identity:zone:defaults:)`` did for one item.
    public struct SnoozeRecord: Equatable, Sendable {
        public var item: String
        /// Where the snooze was written; nil when it stays on this machine because another alarm
        /// of the item is on screen or snoozed here (writing it would answer that one elsewhere too).
        public var record: AnswerRecord?
        /// The snoozed firings that are answered.
        public var snoozed: [FiringKey]
        /// What rings at the snooze's time here: the snooze alarm written into the item (the same
        /// firing other devices ring), or the snoozed firings themselves when it stays here.
        public var ringsAgain: [FiringKey]

        public init(item: String, record: AnswerRecord?, snoozed: [FiringKey], ringsAgain: [FiringKey]) {
            self.item = item
            self.record = record
            self.snoozed = snoozed
            self.ringsAgain = ringsAgain
        }
    }

    /// Snoozes shown (or, with `includingMissed`, missed) firings until `until`, here and on the
    /// other devices: each item gets an RFC 9074 snooze alarm and Thunderbird's snooze line
    /// (``recordAlarmAnswer(item:alarms:occurrences:at:identity:snoozeUntil:)``), and the ledger
    /// passes the snooze to that alarm's firing, so this machine rings it once, from its own
    /// record, even if a server drops the lines. Where the item cannot be written (read-only,
    /// someone else's invitation, another of its alarms still open here) the snooze stays in this
    /// machine's ledger. The daemon and `chime snooze` share this.
    ///
    /// ```swift
    /// let records = try store.snoozeAlarms([key], until: now.adding(600), at: now, identity: me, zone: zone)
    /// records[0].ringsAgain   // the snooze alarm's firing at now + 10 min
    /// ```
    public func snoozeAlarms(
        _ keys: [FiringKey], until: Instant, at now: Instant, identity: Identity, zone: ZoneRules,
        defaults: AlarmDefaults = AlarmDefaults(), includingMissed: Bool = false
    ) throws -> [SnoozeRecord] {
        var records: [SnoozeRecord] = []
        let snoozed = try keys.filter { try ledger.snooze($0, until: until, now: now, includingMissed: includingMissed) }
        let open = try ledger.itemsWithOpenFirings(at: now, excluding: snoozed)
        for (item, answered) in Dictionary(grouping: snoozed, by: \.item).sorted(by: { $0.key < $1.key }) {
            guard !open.contains(item) else {
                records.append(SnoozeRecord(item: item, record: nil, snoozed: answered, ringsAgain: answered))
                continue
            }
            let record = try recordAlarmAnswer(
                item: item, alarms: Set(answered.map(\.alarm)), occurrences: Set(answered.map(\.occurrence)), at: now,
                identity: identity, snoozeUntil: until)
            guard record == .written else {
                records.append(SnoozeRecord(item: item, record: record, snoozed: answered, ringsAgain: answered))
                continue
            }
            // The snooze alarm's own firing, as every device computes it from the item.
            let sources = try alarmSources(from: until.adding(-1), identifiers: [item])
            let successor = AlarmAgenda.firings(
                of: sources.map { ($0.item, $0.replaced) }, zone: zone, from: until.adding(-1), to: until, defaults: defaults
            ).first { $0.key.item == item && $0.fireAt == until && $0.alarm.snoozes != nil }?.key
            guard let successor else {
                records.append(SnoozeRecord(item: item, record: record, snoozed: answered, ringsAgain: answered))
                continue
            }
            try ledger.passSnooze(from: answered, to: successor, until: until, now: now)
            records.append(SnoozeRecord(item: item, record: record, snoozed: answered, ringsAgain: [successor]))
        }
        return records
    }
}
