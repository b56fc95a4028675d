import ChimeCore

/// One "Snooze" button: a length of time (`10m`, `1h`, `1h30m`) or a wall-clock time relative to
/// today (`tomorrow 9:00`, `fri 17:00`), as written in `config.toml`'s `snooze` list.
///
/// Wall-clock choices are read with ``DateExpression`` on the scheduler's zone and clock when the
/// user answers, so `tomorrow 9:00` is 09:00 local time the next day, across a DST change too.
///
/// ```swift
/// let choice = try SnoozeChoice(parsing: "tomorrow 9:00")
/// choice.actionKey                        // "snooze:tomorrow 9:00"
/// choice.label                            // "Snooze until tomorrow 9:00"
/// try SnoozeChoice(parsing: "90m").label  // "Snooze 1 h 30 min"
/// ```
public struct SnoozeChoice: Hashable, Sendable, CustomStringConvertible {
    public enum Target: Hashable, Sendable {
        /// Seconds from the moment the user answers.
        case duration(Int64)
        /// A date expression read at the moment the user answers.
        case wallClock(String)
    }

    /// The text as configured (trimmed, lower-cased): also the action key's tail.
    public let text: String
    public let target: Target

    /// The longest snooze: a week.
    public static let maximumSeconds: Int64 = 7 * 86_400
    /// The action key prefix: `snooze:<text>`.
    public static let keyPrefix = "snooze:"

    /// `text` as a snooze choice: a positive length of at most a week (`5m`, `1h`, `2d`), or a
    /// wall-clock expression that depends on the day (`tomorrow 9:00`, `mon 8:30`, `today 17:00`).
    /// - Throws: ``SnoozeChoiceError`` naming the text and what is accepted.
    public init(parsing raw: String) throws(SnoozeChoiceError) {
        let text = raw.trimmingCharacters(whereSpace: true).lowercased()
        guard !text.isEmpty else { throw SnoozeChoiceError(text: raw, reason: "is empty") }
        if let seconds = try? DateExpression.offsetSeconds(text) {
            guard text.first != "-", seconds > 0 else { throw SnoozeChoiceError(text: raw, reason: "must be a length after now") }
            guard seconds <= Self.maximumSeconds else { throw SnoozeChoiceError(text: raw, reason: "is longer than a week") }
            self.init(text: text, target: .duration(seconds))
            return
        }
        // A wall-clock form must depend on the day it is read: a fixed date would be past soon.
        let dayOne = Instant(secondsSince1970: 1_790_000_000), dayTwo = dayOne.adding(8 * 86_400)
        let first: DateValue, second: DateValue
        do {
            first = try DateExpression.parse(text, now: dayOne, zone: .utc)
            second = try DateExpression.parse(text, now: dayTwo, zone: .utc)
        } catch {
            throw SnoozeChoiceError(text: raw, reason: "is neither a length nor a time of day")
        }
        guard case .local = first, first != second else {
            throw SnoozeChoiceError(text: raw, reason: "must be a time relative to today, with a time of day")
        }
        self.init(text: text, target: .wallClock(text))
    }

    private init(text: String, target: Target) {
        self.text = text
        self.target = target
    }

    /// A choice of `minutes` minutes, written as a config file would: `10m`, `1h`, `2d`.
    public static func minutes(_ minutes: Int) -> SnoozeChoice {
        let text = minutes % 1440 == 0 ? "\(minutes / 1440)d" : minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes)m"
        return SnoozeChoice(text: text, target: .duration(Int64(minutes) * 60))
    }

    /// `snooze:10m`: the notification action's key.
    public var actionKey: String { Self.keyPrefix + text }

    /// The button: "Snooze 10 min", "Snooze 1 h", "Snooze 1 h 30 min", "Snooze until tomorrow 9:00".
    public var label: String { label(.english) }

    /// The button in the user's language (the wall-clock text as configured).
    public func label(_ messages: Messages) -> String {
        switch target {
        case .wallClock(let text): return messages("Snooze until {time}", context: "button", ["time": text])
        case .duration(let seconds):
            let minutes = (seconds + 59) / 60
            let (d, h, m) = (minutes / 1440, minutes % 1440 / 60, minutes % 60)
            let parts = [
                d > 0 ? messages("{n} d", context: "snooze length", ["n": "\(d)"]) : nil,
                h > 0 ? messages("{n} h", context: "snooze length", ["n": "\(h)"]) : nil,
                m > 0 ? messages("{n} min", context: "snooze length", ["n": "\(m)"]) : nil
            ].compactMap { $0 }
            return messages("Snooze {length}", context: "button", ["length": parts.joined(separator: " ")])
        }
    }

    /// When a snooze chosen at `now` ends. A wall-clock time that is not ahead of `now` (`today
    /// 9:00` answered at 10:00) ends a minute from now: the alarm comes back soon, not never.
    public func until(now: Instant, zone: ZoneRules) -> Instant {
        switch target {
        case .duration(let seconds): return now.adding(seconds)
        case .wallClock(let text):
            guard let value = try? DateExpression.parse(text, now: now, zone: zone) else { return now.adding(60) }
            let at = value.instant(in: zone)
            return at > now ? at : now.adding(60)
        }
    }

    public var description: String { text }
}

/// A `snooze` entry that cannot be used: `"5x": is neither a length nor a time of day; use …`.
public struct SnoozeChoiceError: Error, Hashable, Sendable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }
    public var description: String {
        "\"\(text)\" \(reason); use a length such as \"10m\", \"1h\" or \"1h30m\" (at most a week), or a time such as \"tomorrow 9:00\""
    }
}

extension String {
    fileprivate func trimmingCharacters(whereSpace: Bool) -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
