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
    /// series' master, never a new override); Thunderbird snoozes due by then are dropped. Nothing
    /// else changes: not the SEQUENCE (an answer is no change of the meeting).
    ///
    /// ```swift
    /// try store.recordAlarmAnswer(item: key.item, alarms: [key.alarm], at: now, identity: me)   // .written
    /// ```
    @discardableResult
    public func recordAlarmAnswer(item identifier: String, alarms: Set<String>, at: Instant,
                                  identity: Identity) throws -> AnswerRecord {
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
        do {
            switch item {
            case .event:
                try modifyEvent(identifier: identifier, span: .futureEvents) { e in
                    var alarms = e.alarms
                    answer(&e.icsExtras, &alarms)
                    e.alarms = alarms
                }
            case .reminder:
                try modifyReminder(identifier: identifier) { r in
                    var alarms = r.alarms
                    answer(&r.icsExtras, &alarms)
                    r.alarms = alarms
                }
            }
        } catch StoreError.unknownItem {
            return .unknownItem
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
