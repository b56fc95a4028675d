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

    /// A snooze written with an answer (``answer(alarms:extras:answering:at:snooze:)``).
    public struct SnoozeWrite: Sendable {
        /// When it rings again.
        public var until: Instant
        /// The occurrences snoozed (their starts, or a reminder's due date), for Thunderbird's
        /// per-occurrence `X-MOZ-SNOOZE-TIME-<µs>`; ignored for an item that does not repeat.
        public var occurrences: Set<Instant>
        /// Whether the item repeats (Thunderbird names a series' snooze by its occurrence).
        public var isSeries: Bool
        /// Makes a new alarm UID (the snooze alarm's, and the snoozed alarm's when it has none).
        public var makeUID: @Sendable () -> String

        public init(until: Instant, occurrences: Set<Instant>, isSeries: Bool, makeUID: @escaping @Sendable () -> String) {
            self.until = until
            self.occurrences = occurrences
            self.isSeries = isSeries
            self.makeUID = makeUID
        }
    }

    /// Writes an answer given on this machine into an item's alarms and kept lines, in the forms
    /// other devices and clients read: `ACKNOWLEDGED:<at>` on each alarm whose trigger key is
    /// among `keys`, `X-MOZ-LASTACK:<at>` on the item, Thunderbird snoozes due by then dropped.
    /// An answered snooze alarm is removed, as RFC 9074 asks (with its Thunderbird twin). With
    /// `snooze`, an RFC 9074 snooze alarm (absolute, `RELATED-TO;RELTYPE=SNOOZE` to the answered
    /// alarm's UID, which it gets if it had none) replaces any earlier snooze of that alarm, and
    /// `X-MOZ-SNOOZE-TIME[-µs]` is written beside it.
    ///
    /// ```swift
    /// AlarmAnswers.answer(alarms: &event.alarms, extras: &event.icsExtras, answering: ["-900"], at: now,
    ///                     snooze: .init(until: now.adding(600), occurrences: [], isSeries: false) { UUID().uuidString })
    /// ```
    public static func answer(alarms: inout [Alarm], extras: inout [String], answering keys: Set<String>, at: Instant, snooze: SnoozeWrite? = nil) {
        let stamp = at.utcBasicFormat
        var snoozedUID: String?
        var removedSnoozeTimes: Set<Instant> = []
        var index = alarms.startIndex
        while index < alarms.endIndex {
            guard alarms[index].trigger.keyText.map(keys.contains) == true else {
                index += 1
                continue
            }
            if let original = alarms[index].snoozes {
                // An answered snooze alarm goes (RFC 9074 §7); snoozed again, it is replaced below.
                snoozedUID = snoozedUID ?? original
                if case .absolute(let time) = alarms[index].trigger { removedSnoozeTimes.insert(time) }
                alarms.remove(at: index)
                continue
            }
            setLine("ACKNOWLEDGED", to: stamp, in: &alarms[index].icsExtras)
            if snooze != nil, snoozedUID == nil {
                if let uid = alarms[index].uid {
                    snoozedUID = uid
                } else if let make = snooze?.makeUID {
                    let uid = make()
                    alarms[index].icsExtras.append("UID:" + uid)
                    snoozedUID = uid
                }
            }
            index += 1
        }
        setLine("X-MOZ-LASTACK", to: stamp, in: &extras)
        let ended = mozillaSnoozes(in: extras).filter { $0.until <= at || removedSnoozeTimes.contains($0.until) }.map(\.line)
        extras.removeAll { ended.contains($0) }
        guard let snooze, let snoozedUID else { return }
        // Snoozed again: the snoozed alarm's answer moves on too, so that a later X-MOZ-LASTACK
        // still means "answered after this snooze" (``snoozeAnswered(_:in:lastAcknowledged:)``).
        for i in alarms.indices where alarms[i].uid == snoozedUID { setLine("ACKNOWLEDGED", to: stamp, in: &alarms[i].icsExtras) }
        // One snooze per snoozed alarm: an earlier one is replaced, with Thunderbird's lines for the same occurrences.
        alarms.removeAll { $0.snoozes == snoozedUID }
        let names =
            snooze.isSeries && !snooze.occurrences.isEmpty
            ? snooze.occurrences.sorted().map { "X-MOZ-SNOOZE-TIME-\($0.secondsSince1970 * 1_000_000)" } : ["X-MOZ-SNOOZE-TIME"]
        for name in names { setLine(name, to: snooze.until.utcBasicFormat, in: &extras) }
        var alarm = Alarm.absolute(snooze.until)
        alarm.icsExtras = ["UID:" + snooze.makeUID(), "RELATED-TO;RELTYPE=SNOOZE:" + snoozedUID]
        alarms.append(alarm)
    }

    /// Replaces the first `name` line (and drops any further ones) with `name:value`, or appends it.
    ///
    /// ```swift
    /// AlarmAnswers.setLine("X-MOZ-LASTACK", to: "20261204T091500Z", in: &event.icsExtras)
    /// ```
    public static func setLine(_ name: String, to value: String, in lines: inout [String]) {
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

    /// Whether `snooze` (an RFC 9074 snooze alarm among `alarms`) was answered by a client that
    /// writes only Thunderbird's form: an `X-MOZ-LASTACK` later than the snoozed alarm's
    /// `ACKNOWLEDGED` (set when the snooze was made) means the snooze was dismissed or replaced since.
    ///
    /// ```swift
    /// AlarmAnswers.snoozeAnswered(snoozeAlarm, in: event.alarms, lastAcknowledged: AlarmAnswers.lastAcknowledged(of: item))
    /// ```
    public static func snoozeAnswered(_ snooze: Alarm, in alarms: [Alarm], lastAcknowledged: Instant?) -> Bool {
        guard let lastAcknowledged, let snoozed = snooze.snoozes,
            let made = alarms.first(where: { $0.uid == snoozed })?.acknowledged
        else { return false }
        return lastAcknowledged > made
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
