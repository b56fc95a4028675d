import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
            "\(url): the server refused the password for user \"\(user)\" (HTTP 401); check --user and the password command"
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

/// HTTP for WebDAV verbs on Foundation's URLSession, with the two rules that make it work on
/// Linux: credentials go out with every request (a challenge left to URLSession's default
/// handling hangs the task forever there), and a challenge is cancelled, which surfaces as 401.
/// Redirects are followed here, keeping the method and body (URLSession would turn a
/// PROPFIND into a GET).
public final class DAVClient: Sendable {
    private let session: URLSession
    private let authorization: String
    let user: String
    /// How many requests went out (for `account sync` and the benchmark).
    public var requestCount: Int { counter.value }
    private let counter = Counter()

    public init(user: String, password: String, timeout: Double = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: RefuseChallenges(), delegateQueue: nil)
        authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        self.user = user
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends one request; follows up to five redirects. A 401 throws ``CalDAVError/authentication(url:user:)``.
    public func send(_ method: String, _ url: URL, body: String? = nil, headers: [String: String] = [:]) async throws(CalDAVError) -> DAVResponse {
        var target = url
        for _ in 0..<5 {
            var request = URLRequest(url: target)
            request.httpMethod = method
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
            if let body {
                request.httpBody = Data(body.utf8)
                request.setValue(method == "PUT" ? "text/calendar; charset=utf-8" : "application/xml; charset=utf-8",
                                 forHTTPHeaderField: "Content-Type")
            }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            counter.increment()
            let data: Data, response: URLResponse
            do {
                (data, response) = try await session.data(for: request)
            } catch let error as URLError where error.code == .cancelled || error.code == .userAuthenticationRequired {
                throw .authentication(url: target.absoluteString, user: user)
            } catch {
                throw .unreachable(url: target.absoluteString, reason: (error as? URLError).map(Self.describe) ?? "\(error)")
            }
            guard let http = response as? HTTPURLResponse else { throw .malformed(url: target.absoluteString, reason: "not an HTTP answer") }
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
            }
            if http.statusCode == 401 { throw .authentication(url: target.absoluteString, user: user) }
            if [301, 302, 303, 307, 308].contains(http.statusCode), let location = fields["location"],
               let next = URL(string: location, relativeTo: target)?.absoluteURL {
                target = next
                continue
            }
            return DAVResponse(status: http.statusCode, headers: fields, body: data)
        }
        throw .malformed(url: url.absoluteString, reason: "more than five redirects")
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "unknown host"
        case .timedOut: "timed out"
        case .notConnectedToInternet, .networkConnectionLost: "network down"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot: "TLS failed (\(error.localizedDescription))"
        default: error.localizedDescription
        }
    }
}

/// Cancels every authentication challenge (the credentials went out with the request, so a
/// challenge means they were refused), and never follows a redirect itself.
private final class RefuseChallenges: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        // (On Linux TLS trust is libcurl's, against the system CA store; it never comes here.)
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

private final class Counter: Sendable {
    private let storage = Mutex(0)
    var value: Int { storage.withLock { $0 } }
    func increment() { storage.withLock { $0 += 1 } }
}
