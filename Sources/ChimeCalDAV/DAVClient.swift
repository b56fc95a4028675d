import CCurlShim
import Foundation
import Synchronization

/// Why talking to a CalDAV server failed, worded for the person who configured the account.
public enum CalDAVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server refused the user name or password (HTTP 401).
    case authentication(url: String, user: String)
    /// No answer: no route, refused connection, timeout, TLS failure.
    case unreachable(url: String, reason: String)
    /// An answer the operation cannot go on with.
    case http(method: String, url: String, status: Int, detail: String)
    /// An answer that is not what a CalDAV server sends.
    case malformed(url: String, reason: String)
    /// The password could not be had (the command failed, no terminal to ask on).
    case password(String)
    /// A name or URL the user gave that does not fit.
    case input(String)

    public var description: String {
        switch self {
        case .authentication(let url, let user):
            "\(url): the server refused the password for user \"\(user)\" (HTTP 401); check the user name and the password"
        case .unreachable(let url, let reason): "\(url): no answer from the server: \(reason)"
        case .http(let method, let url, let status, let detail):
            "\(url): \(method) answered HTTP \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        case .malformed(let url, let reason): "\(url): \(reason)"
        case .password(let why): why
        case .input(let why): why
        }
    }

    /// True when trying again later may help (the server or the network was away).
    public var isTransient: Bool {
        switch self {
        case .unreachable: return true
        case .http(_, _, let status, _): return status >= 500 || status == 429 || status == 408
        default: return false
        }
    }
}

/// One HTTP answer.
public struct DAVResponse: Sendable {
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    public var body: Data
    public var etag: String? { headers["etag"] }
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// HTTP for WebDAV verbs on libcurl's easy interface, one blocking transfer at a time on a
/// thread of its own. (Foundation's URLSession keeps a core busy on Linux for as long as it
/// waits for an answer, and hangs on a 401 challenge unless the challenge is cancelled; libcurl
/// waits in poll.) Credentials go out with every request; redirects are followed here, keeping
/// the method and body; TLS is checked against the system's CA store.
public final class DAVClient: Sendable {
    private let authorization: String?
    private let timeout: Int
    let user: String
    /// How many requests went out (for `account sync` and the benchmark).
    public var requestCount: Int { counter.value }
    private let counter = Counter()
    /// One easy handle for all of this client's requests, so that its connection (and TLS
    /// session) is reused from one request to the next; transfers take turns on it.
    private let connection = CurlConnection()

    public init(user: String, password: String, timeout: Double = 30) {
        _ = DAVClient.curlProblem
        authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        self.timeout = max(1, Int(timeout))
        self.user = user
    }

    /// A client that sends no credentials (a public calendar feed).
    public init(timeout: Double = 30) {
        _ = DAVClient.curlProblem
        authorization = nil
        self.timeout = max(1, Int(timeout))
        self.user = ""
    }

    /// libcurl is opened (and curl_global_init run) once, on the first client; nil when it is
    /// ready, else why not (it is loaded on first use, not linked: CCurlShim.h says why).
    private static let curlProblem: String? = chime_curl_load().map { String(cString: $0) }

    /// Sends one request; follows up to five redirects. A 401 throws ``CalDAVError/authentication(url:user:)``.
    ///
    /// Only http and https are spoken, and followed: a redirect to another scheme (`file:`, `gopher:`)
    /// or from https down to http is refused, and the credentials go only to the origin (scheme, host
    /// and port) the request was made to, never to one a redirect names. A header value carrying a
    /// line break or NUL (an ETag a server sent, sent back in `If-Match`) is refused rather than sent.
    public func send(_ method: String, _ url: URL, body: String? = nil, headers: [String: String] = [:]) async throws(CalDAVError) -> DAVResponse {
        try await transfer(method, url, body: body, headers: headers, streaming: nil)
    }

    /// Sends one request as ``send(_:_:body:headers:)`` does, but an answer with `streamed`'s
    /// status is not held: its body goes to `streamed`'s reader as it arrives, and the returned
    /// response's body is empty. The cap on a body's size applies all the same.
    public func send<Parsed>(
        _ method: String, _ url: URL, body: String? = nil, headers: [String: String] = [:],
        streaming streamed: StreamedBody<Parsed>
    ) async throws(CalDAVError) -> DAVResponse {
        try await transfer(method, url, body: body, headers: headers, streaming: streamed)
    }

    private func transfer(
        _ method: String, _ url: URL, body: String?, headers: [String: String],
        streaming streamed: (any BodyStreaming)?
    ) async throws(CalDAVError) -> DAVResponse {
        if let problem = Self.curlProblem { throw .unreachable(url: url.absoluteString, reason: problem) }
        guard HTTPOrigin(url) != nil else {
            throw .input("\(DAVClient.shown(url.absoluteString)): only http and https addresses can be used")
        }
        for (name, value) in headers where !HTTPOrigin.isSafeHeaderValue(value) {
            throw .malformed(url: url.absoluteString, reason: "refused to send header \(name): its value holds a line break or NUL")
        }
        var target = url
        for _ in 0..<5 {
            var fields = ["Expect": ""]  // no 100-continue round trip
            if let authorization, HTTPOrigin(target) == HTTPOrigin(url) { fields["Authorization"] = authorization }
            if body != nil {
                fields["Content-Type"] = method == "PUT" ? "text/calendar; charset=utf-8" : "application/xml; charset=utf-8"
            }
            for (name, value) in headers { fields[name] = value }
            counter.increment()
            let request = CurlRequest(
                method: method, url: target.absoluteString, body: body.map { Array($0.utf8) },
                headers: fields, timeout: timeout, streamed: streamed)
            let connection = self.connection
            let outcome = await withCheckedContinuation { (done: CheckedContinuation<Result<DAVResponse, CurlFailure>, Never>) in
                let thread = Thread { done.resume(returning: connection.perform(request)) }
                thread.name = "chime.http"
                thread.start()
            }
            let response: DAVResponse
            switch outcome {
            case .success(let r): response = r
            case .failure(let failure) where failure.tooLarge:
                throw .malformed(
                    url: target.absoluteString,
                    reason: "the answer is larger than \(Self.maximumBodyBytes / 1_048_576) MiB, "
                        + "more than Chime reads of one answer (a calendar this large is not supported); nothing of it was used")
            case .failure(let failure): throw .unreachable(url: target.absoluteString, reason: failure.reason)
            }
            if response.status == 401, let asking = HTTPOrigin(target), asking != HTTPOrigin(url) {
                // The password was never offered there: "refused the password" would send the user
                // to check a password that is right.
                throw .malformed(
                    url: url.absoluteString,
                    reason: "redirected to \(asking), which asks for a password (HTTP 401); "
                        + "Chime sends the password only to \(HTTPOrigin(url).map(String.init(describing:)) ?? url.absoluteString), "
                        + "the address the account was added with: if the server moved, remove the account and add it with the new address")
            }
            if response.status == 401 { throw .authentication(url: target.absoluteString, user: user) }
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"],
                let next = URL(string: location, relativeTo: target)?.absoluteURL
            {
                guard let to = HTTPOrigin(next) else {
                    throw .malformed(
                        url: target.absoluteString,
                        reason: "redirected to \(DAVClient.shown(next.absoluteString)): "
                            + "only http and https redirects are followed")
                }
                guard to.scheme == "https" || HTTPOrigin(target)?.scheme != "https" else {
                    throw .malformed(
                        url: target.absoluteString,
                        reason: "redirected from https to \(DAVClient.shown(next.absoluteString)): "
                            + "a redirect that drops encryption is not followed")
                }
                target = next
                continue
            }
            return response
        }
        throw .malformed(url: url.absoluteString, reason: "more than five redirects")
    }

    /// The most of one answer's body that is read. A held body is parsed after it came (a few
    /// times its size at the peak), and even a streamed one leaves its calendar data behind, so an
    /// unbounded answer (a hostile or broken server's 1 GB) would get the daemon killed; the largest
    /// real calendars are a few MB.
    public static let maximumBodyBytes = 64 * 1_048_576

    /// A server-given address as an error shows it: at most 200 characters.
    static func shown(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}

/// Where a request goes, as far as who may see its credentials is concerned: scheme, host, port.
/// Only http and https have one (nil for every other scheme).
struct HTTPOrigin: Hashable, CustomStringConvertible {
    let scheme: String, host: String, port: Int

    var description: String { "\(scheme)://\(host):\(port)" }

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// A header value that cannot end its header line or start another (RFC 9110 §5.5).
    static func isSafeHeaderValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}

private struct CurlFailure: Error {
    let reason: String
    /// The body passed ``DAVClient/maximumBodyBytes`` and the transfer was stopped.
    var tooLarge = false
}

/// An easy handle kept across requests (libcurl keeps its connections with it). One transfer at
/// a time: a lock held for the transfer, which runs on a thread of its own.
private final class CurlConnection: @unchecked Sendable {
    // @unchecked: `handle` is used only while `lock` is held.
    private let lock = NSLock()
    private var handle: UnsafeMutableRawPointer?

    func perform(_ request: CurlRequest) -> Result<DAVResponse, CurlFailure> {
        lock.lock()
        defer { lock.unlock() }
        if let handle {
            chime_curl_easy_reset(handle)  // options back to defaults; the connection cache stays
        } else {
            handle = chime_curl_easy_init()
        }
        guard let handle else { return .failure(CurlFailure(reason: "libcurl could not start a transfer")) }
        return request.perform(on: handle)
    }

    deinit { if let handle { chime_curl_easy_cleanup(handle) } }
}

/// One transfer: its request, and what came back.
private final class CurlRequest: @unchecked Sendable {
    // @unchecked: used by one thread at a time (built here, performed on the transfer thread).
    let method: String, url: String, body: [UInt8]?, headers: [String: String], timeout: Int
    /// Where the body of an answer with its status goes instead of ``received``.
    let streamed: (any BodyStreaming)?
    var received = Data()
    /// Bytes of the answer's body so far, held or streamed.
    var bodyBytes = 0
    /// The status of the answer being received (from its status line).
    var status = 0
    var fields: [String: String] = [:]
    /// Set when the body passed ``DAVClient/maximumBodyBytes`` (the transfer is stopped there).
    var tooLarge = false
    /// Set when the streamed body's reader stopped before the body ended (it is not XML): its
    /// result, not the stopped transfer, says what went wrong.
    var readerStopped = false

    init(method: String, url: String, body: [UInt8]?, headers: [String: String], timeout: Int, streamed: (any BodyStreaming)?) {
        self.method = method
        self.url = url
        self.body = body
        self.headers = headers
        self.timeout = timeout
        self.streamed = streamed
    }

    func perform(on handle: UnsafeMutableRawPointer) -> Result<DAVResponse, CurlFailure> {
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for (name, value) in headers { list = chime_curl_slist_append(list, value.isEmpty ? "\(name):" : "\(name): \(value)") }
        defer { chime_curl_slist_free_all(list) }
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let code: CURLcode = errorText.withUnsafeMutableBufferPointer { errorBuffer in
            _ = chime_curl_setopt_string(handle, CURLOPT_URL, url)
            _ = chime_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
            _ = chime_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)
            _ = chime_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = chime_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 10)
            _ = chime_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeout)
            _ = chime_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            // http and https only, also if a later change let libcurl follow a redirect itself.
            _ = chime_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            _ = chime_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            _ = chime_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // gzip when the server offers it
            _ = chime_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
            _ = chime_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                let request = Unmanaged<CurlRequest>.fromOpaque(context!).takeUnretainedValue()
                guard request.bodyBytes + size * count <= DAVClient.maximumBodyBytes else {
                    request.tooLarge = true
                    return 0  // anything but size * count stops the transfer (CURLE_WRITE_ERROR)
                }
                request.bodyBytes += size * count
                guard let data else { return size * count }
                if let streamed = request.streamed, streamed.status == request.status {
                    guard streamed.write(UnsafeRawBufferPointer(start: data, count: size * count)) else {
                        request.readerStopped = true
                        return 0
                    }
                } else {
                    request.received.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
                }
                return size * count
            }
            _ = chime_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
            _ = chime_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                let request = Unmanaged<CurlRequest>.fromOpaque(context!).takeUnretainedValue()
                guard let data else { return size * count }
                let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
                if line.hasPrefix("HTTP/") {  // a new answer (after a 100 Continue)
                    request.fields = [:]
                    request.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                }
                if let colon = line.firstIndex(of: ":") {
                    request.fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                }
                return size * count
            }
            _ = chime_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, me)
            guard let body else { return chime_curl_easy_perform(handle) }
            return body.withUnsafeBufferPointer { bytes in
                _ = chime_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                _ = chime_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                return chime_curl_easy_perform(handle)
            }
        }
        streamed?.finish()
        if tooLarge { return .failure(CurlFailure(reason: "answer too large", tooLarge: true)) }
        guard code == CURLE_OK || readerStopped else {
            let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(CurlFailure(reason: Self.describe(code, detail: detail)))
        }
        var status = 0
        _ = chime_curl_response_code(handle, &status)
        return .success(DAVResponse(status: status, headers: fields, body: received))
    }

    private static func describe(_ code: CURLcode, detail: String) -> String {
        switch code {
        case CURLE_COULDNT_CONNECT: return "connection refused"
        case CURLE_COULDNT_RESOLVE_HOST: return "unknown host"
        case CURLE_OPERATION_TIMEDOUT: return "timed out"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return "TLS failed" + (detail.isEmpty ? "" : " (\(detail))")
        default:
            return detail.isEmpty ? String(cString: chime_curl_easy_strerror(code)) : detail
        }
    }
}

private final class Counter: Sendable {
    private let storage = Mutex(0)
    var value: Int { storage.withLock { $0 } }
    func increment() { storage.withLock { $0 += 1 } }
}
