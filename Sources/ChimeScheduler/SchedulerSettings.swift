import ChimeCore

/// The scheduler's tunables; `Config/config.toml` documents each with its default.
///
/// ```swift
/// var settings = SchedulerSettings()
/// settings.snoozeChoices = [try SnoozeChoice(parsing: "5m"), try SnoozeChoice(parsing: "tomorrow 9:00")]
/// ```
public struct SchedulerSettings: Hashable, Sendable {
    /// The Snooze buttons, in order (default 10 minutes and 1 hour). A snooze answer that names
    /// no choice (a server or client that only knows "snooze") uses the first.
    public var snoozeChoices: [SnoozeChoice] = [.minutes(10), .minutes(60)]
    /// Firings that came due while the daemon was off or the machine asleep are still shown if
    /// at most this old (default 24 hours); older ones are recorded as missed.
    public var graceSeconds: Int64 = 86_400
    /// When more than this many late firings are caught up at once, they become one
    /// "You missed N alarms" notification (default 3).
    public var missedSummaryThreshold: Int = 3
    /// A firing delivered more than this late counts as caught up rather than on time (default 60 s).
    public var lateSeconds: Int64 = 60
    /// Ledger rows not touched for this long are deleted at start (default 90 days).
    public var ledgerRetentionSeconds: Int64 = 90 * 86_400
    /// Reminders fire at their due time without an alarm of their own; all-day alarms count from 09:00.
    public var alarmDefaults = AlarmDefaults()
    /// The allow-list of commands an item's alarms may run (`[commands]`; empty: none runs).
    public var commands = AlarmCommands()
    /// Which sound an alarm plays, and whether every alarm plays one (`[notifications]`).
    public var sounds = AlarmSounds()

    public init() {}
}
