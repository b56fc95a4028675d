import ChimeCore
import ChimeLanguage
import ChimeScheduler
import ChimeTestSupport
import Testing

/// What the user reads, through the real catalogs: plural forms by each language's own rule, day
/// headings written as the language writes them, notifications and their buttons.
@Suite struct MessagesTests {
    static func messages(_ locale: String) -> Messages {
        Messages(catalog: CatalogSandbox.catalog(locale), time: CatalogSandbox.catalog(locale))
    }

    /// Russian has three forms (1 напоминание, 3 напоминания, 5 напоминаний; 21 like 1, 11 like 5).
    @Test func russianPluralsFollowRussianRules() {
        let ru = Self.messages("ru_RU.UTF-8")
        let forms = [1, 3, 5, 11, 21, 22].map { ru.plural("You missed {count} alarm", "You missed {count} alarms", count: $0) }
        #expect(
            forms == [
                "Вы пропустили 1 напоминание", "Вы пропустили 3 напоминания", "Вы пропустили 5 напоминаний",
                "Вы пропустили 11 напоминаний", "Вы пропустили 21 напоминание", "Вы пропустили 22 напоминания"
            ])
        let zh = Self.messages("zh_CN.UTF-8")
        #expect(zh.plural("You missed {count} alarm", "You missed {count} alarms", count: 1) == "您错过了 1 个提醒")
        #expect(Messages.english.plural("You missed {count} alarm", "You missed {count} alarms", count: 1) == "You missed 1 alarm")
    }

    @Test func dayHeadingsAsEachLanguageWritesThem() {
        let day = CivilDate(year: 2026, month: 12, day: 3)
        let headings = ["zh_CN", "ja_JP", "ru_RU", "de_DE", "fr_FR", "es_ES"].map { Self.messages($0 + ".UTF-8").dayHeading(day) }
        #expect(
            headings == [
                "2026年12月3日 星期四", "2026年12月3日(木)", "Чт, 3 декабря 2026", "Do, 3. Dezember 2026",
                "jeu. 3 décembre 2026", "jue 3 de diciembre de 2026"
            ])
        #expect(Messages.english.dayHeading(day) == "Thu 2026-12-03")
    }

    /// A notification in Russian: the time line, the invitation line, the buttons; the item's own
    /// title stays as written.
    @Test func aNotificationInRussian() throws {
        let ru = Self.messages("ru_RU.UTF-8")
        let due = Instant(secondsSince1970: 1_796_292_000)  // 2026-12-03T10:00:00Z
        var reminder = Reminder(identifier: "R1", title: "Позвонить маме", calendar: "c")
        reminder.dueDate = .utc(due.utc)
        let firing = AlarmFiring(
            key: FiringKey(item: "R1", occurrence: due, alarm: "0"), fireAt: due, alarm: .relative(0),
            item: ItemSummary(reminder), occurrenceStart: due, occurrenceEnd: nil)
        let note = NotificationText.notification(for: firing, zone: .utc, snoozeChoices: [.minutes(10), .minutes(90)], messages: ru)
        #expect(note.summary == "Позвонить маме")
        #expect(note.body == "Срок: Чт, 3 декабря 2026 10:00", "\(note.body)")
        #expect(note.actions.map(note.label(for:)) == ["Показать", "Выполнено", "Отложить на 10 мин", "Отложить на 1 ч 30 мин"])
        let bob = try #require(Participant(contentLine: "ORGANIZER;CN=Боб:mailto:bob@example.org"))
        let others = ["Анна", "Вера", "Глеб", "Дина", "Егор"].map { Participant(contentLine: "ATTENDEE;CN=\($0):mailto:\($0)@example.org")! }
        #expect(
            NotificationText.invitationLine(organizer: bob, attendees: others, identity: Identity(), messages: ru)
                == "Приглашение от Боб; также: Анна, Вера, Глеб и ещё 2")
        let missed = NotificationText.missedSummary(Array(repeating: firing, count: 12), zone: .utc, listing: 10, messages: ru)
        #expect(missed.summary == "Вы пропустили 12 напоминаний" && missed.body.hasSuffix("… и ещё 2"), "\(missed.body)")
        #expect(missed.label(for: .default) == "Закрыть")
    }

    /// Placeholders are filled in one pass: a value holding braces is written as it is; an unknown
    /// name and a lone brace stay.
    @Test func aValueWithBracesIsNeverFilledInTurn() {
        let text = MessageText("no store at {path} (from {source}); {unknown} {", ["path": "/x/{source}", "source": "$CHIME_STORE"])
        #expect(text.english == "no store at /x/{source} (from $CHIME_STORE); {unknown} {")
        #expect(Messages.english.plural("{count} item", "{count} items", count: 2, ["name": "{count}"]) == "2 items")
    }
}
