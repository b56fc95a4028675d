/// What other clients (and Chime on another machine) wrote into an item to say that its alarms
/// were answered or snoozed, read from every dialect in use:
///
/// - RFC 9074: `ACKNOWLEDGED` (UTC) on the VALARM: its instances that fire at or before it were
///   answered; a snooze is a second VALARM with `RELATED-TO;RELTYPE=SNOOZE:<uid of the first>` and
///   an absolute trigger, which rings as any absolute alarm (and is answered by its own `ACKNOWLEDGED`).
///   Evolution and Apple write `ACKNOWLEDGED` too.
/// - Thunderbird: `X-MOZ-LASTACK` on the item (the series' master): every alarm instance that
///   fires at or before it was answered; `X-MOZ-SNOOZE-TIME` (a single item) and
///   `X-MOZ-SNOOZE-TIME-<recurrence-id in µs since 1970>` (one occurrence of a series) ring again
///   at their time.
/// - The alarm's identity: the VALARM's `UID`, else Apple's `X-WR-ALARMUID`, else Evolution's
///   `X-EVOLUTION-ALARM-UID` (``Alarm/uid``).
///
/// ```swift
/// event.icsExtras.append("X-MOZ-LASTACK:20261204T091500Z")
/// AlarmAnswers.lastAcknowledged(of: .event(event))   // 2026-12-04 09:15 UTC
/// ```
public enum AlarmAnswers {
    /// Thunderbird's `X-MOZ-LASTACK` of the item.
    public static func lastAcknowledged(of item: AnyCalendarItem) -> Instant? {
        ICalendarText.firstValue(of: "X-MOZ-LASTACK", in: item.icsExtras).flatMap(utcInstant)
    }

    /// Thunderbird's snoozes: `(occurrence, until)` for each `X-MOZ-SNOOZE-TIME` (occurrence nil)
    /// and `X-MOZ-SNOOZE-TIME-<µs>` (the occurrence's recurrence id).
    public static func mozillaSnoozes(of item: AnyCalendarItem) -> [(occurrence: Instant?, until: Instant)] {
        mozillaSnoozes(in: item.icsExtras).map { ($0.occurrence, $0.until) }
    }

    /// The `X-MOZ-SNOOZE-TIME[-µs]` lines among `lines` whose time is at or before `instant`: the
    /// snoozes an answer given then ends.
    public static func mozillaSnoozeLines(in lines: [String], dueBy instant: Instant) -> [String] {
        mozillaSnoozes(in: lines).filter { $0.until <= instant }.map(\.line)
    }

    private static func mozillaSnoozes(in lines: [String]) -> [(occurrence: Instant?, until: Instant, line: String)] {
        var result: [(Instant?, Instant, String)] = []
        let prefix = Array("X-MOZ-SNOOZE-TIME".utf8)
        for line in lines {
            // Other lines are passed over on their first bytes (every item is read at the daemon's start).
            guard line.utf8.count > prefix.count, zip(line.utf8, prefix).allSatisfy({ upper($0) == $1 }) else { continue }
            let (name, _, value) = Participant.split(line)
            guard let until = utcInstant(value) else { continue }
            let suffix = name.dropFirst(prefix.count)
            if suffix.isEmpty {
                result.append((nil, until, line))
            } else if suffix.first == "-", let micros = Int64(suffix.dropFirst()) {
                result.append((Instant(secondsSince1970: micros / 1_000_000), until, line))
            }
        }
        return result
    }

    /// A UTC date-time value (`20261204T091500Z`); nil for anything else.
    ///
    /// ```swift
    /// AlarmAnswers.utcInstant("20261204T091500Z")   // 2026-12-04 09:15 UTC
    /// ```
    public static func utcInstant(_ text: String) -> Instant? {
        if case .utc(let l)? = BasicDateTime.parse(text.trimmingSpaces()) { return Instant(utc: l) }
        return nil
    }

    private static func upper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }
}

extension Alarm {
    /// RFC 9074 `ACKNOWLEDGED`: when this alarm was last answered (instances that fire at or
    /// before it do not ring again).
    public var acknowledged: Instant? { extraValue("ACKNOWLEDGED").flatMap(AlarmAnswers.utcInstant) }

    /// The alarm's identity across clients and edits: `UID` (RFC 9074), else `X-WR-ALARMUID`
    /// (Apple), else `X-EVOLUTION-ALARM-UID` (Evolution).
    public var uid: String? { extraValue("UID") ?? extraValue("X-WR-ALARMUID") ?? extraValue("X-EVOLUTION-ALARM-UID") }

    /// The UID of the alarm this one snoozes (RFC 9074 `RELATED-TO;RELTYPE=SNOOZE`, or a bare
    /// `RELATED-TO` inside a VALARM); nil for an alarm of its own.
    public var snoozes: String? {
        for line in icsExtras where line.utf8.count > 10 && line.prefix(10).uppercased() == "RELATED-TO" {
            let (name, parameters, value) = Participant.split(line)
            guard name.uppercased() == "RELATED-TO" else { continue }
            let type = parameters["RELTYPE"]?.uppercased()
            if type == nil || type == "SNOOZE" { return value.trimmingSpaces() }
        }
        return nil
    }

    /// The value of one of the VALARM's kept properties, as written (spaces trimmed).
    func extraValue(_ property: String) -> String? { ICalendarText.firstValue(of: property, in: icsExtras) }
}
