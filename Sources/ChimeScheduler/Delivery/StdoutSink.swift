import ChimeCore
import Glibc

/// Writes one JSON object per notification to standard output, unbuffered:
/// `{"chime_json":1,"fire":"2026-12-01T08:45:00Z","delivered":"2026-12-01T08:45:00.003Z","lateness_ms":3,"ref":"…","key":"…","title":"…",…}`
///
/// `ref` is the reference `chime show` takes; `key` is the alarm ledger's key (what the D-Bus
/// service's Snooze and Dismiss take). A "You missed N alarms" line has `refs` and `keys`.
///
/// For scripts, demos and benchmarks, and the fallback when no notification server answers.
/// It has no user to answer, so ``responses`` never yields.
public final class StdoutSink: NotificationSink {
    public let name = "stdout"
    public let responses: AsyncStream<NotificationResponse>
    private let continuation: AsyncStream<NotificationResponse>.Continuation
    private let fd: Int32

    /// - Parameter fileDescriptor: where lines go (standard output by default).
    public init(fileDescriptor: Int32 = STDOUT_FILENO) {
        (responses, continuation) = AsyncStream.makeStream()
        fd = fileDescriptor
    }

    public func deliver(_ n: AlarmNotification, deliveredAtMilliseconds ms: Int64) throws(DeliveryError) {
        let line = Self.line(n, deliveredAtMilliseconds: ms) + "\n"
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw DeliveryError("cannot write to standard output (errno \(errno))")
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Lines already written stay written: the ledger (and `chime alarms`) says the alarm is over.
    public func withdraw(_ keys: Set<FiringKey>) {}

    /// Nobody reads standard output to answer a question.
    public func ask(_ question: UserQuestion, answered: @escaping @Sendable (String?) -> Void) throws(DeliveryError) -> Int {
        throw DeliveryError("alarms go to standard output here (notifier \"stdout\"), where nobody can answer a question")
    }

    public func withdrawQuestion(_ id: Int) {}

    public func shutdown() { continuation.finish() }

    /// The JSON line for one notification (no trailing newline).
    public static func line(_ n: AlarmNotification, deliveredAtMilliseconds ms: Int64) -> String {
        var fields: [(String, String)] = [
            ("fire", JSONText.string(n.fireAt.description)),
            ("delivered", JSONText.string(Instant.isoUTC(milliseconds: ms))),
            ("lateness_ms", String(ms - n.fireAt.secondsSince1970 * 1000))
        ]
        if n.keys.count == 1 {
            if let ref = n.references.first { fields.append(("ref", JSONText.string(ref))) }
            fields.append(("key", JSONText.string(n.keys[0].description)))
        } else {
            fields.append(("refs", JSONText.stringArray(n.references)))
            fields.append(("keys", JSONText.array(n.keys.map { JSONText.string($0.description) })))
        }
        fields.append(("title", JSONText.string(n.summary)))
        fields.append(("body", JSONText.string(n.body)))
        fields.append(("kind", JSONText.string(n.kind)))
        fields.append(("urgency", JSONText.string(n.urgency.rawValue)))
        return JSONText.document(fields)
    }
}

extension Instant {
    /// `2026-12-01T08:45:00.003Z`.
    public static func isoUTC(milliseconds ms: Int64) -> String {
        let seconds = Instant(secondsSince1970: ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        let fraction = ms - seconds.secondsSince1970 * 1000
        let digits = String(fraction)
        return seconds.utc.description + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
