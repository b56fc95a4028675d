import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// An answer's body handed to a reader as it arrives, instead of held whole and parsed after.
///
/// libcurl delivers the body on the transfer's thread, a chunk at a time; the reader (an XML
/// parser, which pulls from an `InputStream`) runs on a thread of its own and reads from the
/// other end of a local socket pair. The socket's buffer is the only body held: when the reader
/// is behind, the transfer waits; when the reader stops early (the answer is not XML), the
/// transfer is stopped too. So a 60 MB answer costs what the reader keeps, not 60 MB and its
/// copies.
///
/// ```swift
/// let lines = StreamedBody(status: 200) { stream in countLines(in: stream) }
/// let response = try await client.send("GET", url, streaming: lines)
/// if response.status == 200, let count = lines.result { … }
/// ```
public final class StreamedBody<Parsed: Sendable>: BodyStreaming, @unchecked Sendable {
    // @unchecked: `write`/`finish` run on the transfer's thread only, `result` is set by the reader
    // thread and read after `finish` has waited for it (the semaphore orders the two).
    /// The status whose body is streamed; the body of any other answer (an error page, a
    /// redirect) is held as usual.
    public let status: Int
    private let read: @Sendable (InputStream) -> Parsed
    private var writer: Int32 = -1
    private var started = false
    private let done = DispatchSemaphore(value: 0)
    /// What the reader made of the body; nil when no body with ``status`` came.
    public private(set) var result: Parsed?

    public init(status: Int, read: @escaping @Sendable (InputStream) -> Parsed) {
        self.status = status
        self.read = read
    }

    /// Passes one chunk to the reader (starting it on the first); false when the reader has
    /// stopped reading, which stops the transfer.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !started {
            started = true
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return false }
            writer = pair[1]
            let readerEnd = pair[0], read = self.read
            let thread = Thread { [self] in
                let stream = DescriptorInputStream(descriptor: readerEnd)
                result = read(stream)
                close(readerEnd)  // a reader that stopped early stops the transfer (EPIPE)
                done.signal()
            }
            thread.name = "chime.http.read"
            thread.start()
        }
        guard writer >= 0, var at = bytes.baseAddress else { return false }
        var left = bytes.count
        while left > 0 {
            let sent = send(writer, at, left, Int32(MSG_NOSIGNAL))
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            at += sent
            left -= sent
        }
        return true
    }

    /// Ends the body (the reader sees its end) and waits for the reader to finish.
    func finish() {
        guard started else { return }
        if writer >= 0 { close(writer); writer = -1 }
        done.wait()
    }

    /// True once a body with ``status`` started to arrive.
    var hasStarted: Bool { started }
}

/// An `InputStream` over a file descriptor, read with read(2) as the parser asks.
private final class DescriptorInputStream: InputStream {
    private let descriptor: Int32
    private var status: Stream.Status = .notOpen

    init(descriptor: Int32) {
        self.descriptor = descriptor
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer, length)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { status = .error } else if count == 0 { status = .atEnd }
            return count
        }
    }
}

/// What the transfer needs of a ``StreamedBody``, whatever its reader makes.
protocol BodyStreaming: AnyObject, Sendable {
    var status: Int { get }
    var hasStarted: Bool { get }
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
    func finish()
}
