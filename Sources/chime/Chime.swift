import ArgumentParser

@main
struct Chime: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chime",
        abstract: "Alarms and reminders for the Linux desktop.",
        discussion: """
            Chime keeps events and reminders, computes their occurrences from RFC 5545 \
            recurrence rules and fires their alarms. This build provides the recurrence engine:
              chime expand --dtstart 2026-01-30T09:00 --tz Europe/Berlin --rrule 'FREQ=MONTHLY;BYMONTHDAY=-1' --count 5
            Run 'chime help expand' for everything it can do.
            """,
        version: "0.1.0",
        subcommands: [Expand.self]
    )
}
