import ChimeCore
import ChimeFormat
import ChimeStore

// `chime add event --edit` and `chime add reminder --edit`: the form `chime edit` opens, empty
// but for the options given, read back as `chime add` reads its options. A form saved
// unchanged, or with every line emptied, adds nothing and says so (exit status 1).

extension AddEventCommand {
    func addInEditor(_ store: EventStore, target: ChimeCore.Calendar) throws {
        let blank = EditForm.blank(event: true)
        let original = item.prefill(blank.with("title", title).with("start", start).with("end", end).with("zone", tz))
        let added = try EditForm.session(original, emptyIsUnchanged: true) { form in
            guard let startText = form.value("start"), !startText.isEmpty else { throw InputError(translatable: "start: an event needs a start") }
            let endText = form.value("end").flatMap { $0.isEmpty ? nil : $0 }
            // --duration has no line in the form: it stands while the form gives no end.
            var event = try EventInput.event(
                title: form.value("title") ?? "", start: startText, end: endText,
                duration: endText == nil ? duration : nil,
                tz: form.value("zone").flatMap { $0.isEmpty ? nil : $0 }, allDay: allDay,
                calendar: target.identifier, names: ("start", "end", "duration"),
                context: CLIContext.command)
            // The dates are read above, as `add` reads them; the rest as `edit` reads a form.
            let dated = blank.with("start", form.value("start")).with("end", form.value("end")).with("zone", form.value("zone"))
            try form.apply(to: &event, original: dated)
            try item.applyBesideForm(to: &event)
            let saved = try store.save(event)
            try item.finishSave(ofItem: saved.identifier, in: store)
            try report(saved, store: store, target: target)
        }
        if !added { throw InputError(translatable: "the form was saved unchanged or empty; no event was added") }
    }
}

extension AddReminderCommand {
    func addInEditor(_ store: EventStore, target: ChimeCore.Calendar) throws {
        let blank = EditForm.blank(event: false)
        let original = item.prefill(
            blank.with("title", title).with("due", due).with("zone", tz == "floating" ? nil : tz)
                .with("priority", priority == 0 ? nil : "\(priority)"))
        let added = try EditForm.session(original, emptyIsUnchanged: true) { form in
            var reminder = Reminder(title: "", calendar: target.identifier)
            reminder.startDate = try start.map { try CLIContext.calendarDate($0, option: "--start", tz: tz) }
            try form.apply(to: &reminder, original: blank)
            try item.applyBesideForm(to: &reminder)
            if reminder.dueDate == nil && reminder.startDate == nil, reminder.alarms.contains(where: { if case .relative = $0.trigger { true } else { false } })
            {
                throw InputError(
                    translatable: "alarms: an offset counts from the due time, and this reminder has none; give a due date, or a date for the alarm")
            }
            let saved = try store.save(reminder)
            try item.finishSave(ofItem: saved.identifier, in: store)
            report(saved, target: target, store: store)
        }
        if !added { throw InputError(translatable: "the form was saved unchanged or empty; no reminder was added") }
    }
}

extension ItemOptions {
    /// The form with the options that have a line in it filled in, as they were typed.
    func prefill(_ form: EditForm) -> EditForm {
        form.with("repeat", rules.isEmpty ? nil : rules.joined(separator: " | "))
            .with("alarms", alarms.isEmpty ? nil : alarms.joined(separator: ", "))
            .with("location", location).with("url", url).with("notes", notes)
    }

    /// The options the form has no line for: a geofence (--at/--on) and --no-alarm.
    func applyBesideForm(to item: inout some CalendarItem) throws {
        if let at { item.alarms.append(.location(try Self.place(at), on.proximity)) }
        if noAlarm {
            item.alarms = []
            if item is Reminder, !item.icsExtras.contains(AlarmDefaults.noAlarmMarker) { item.icsExtras.append(AlarmDefaults.noAlarmMarker) }
        }
    }
}
