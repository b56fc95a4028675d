import ChimeCore
import ChimeICS
import ChimeStore
import Foundation

/// Fetches a subscribed calendar's feed with a conditional GET (its ETag and Last-Modified) and
/// applies it through the forgiving iCalendar reader.
public enum FeedRefresh {
    /// The URL fetched for a feed: `webcal://` and `webcals://` are https.
    public static func fetchURL(_ given: String) throws(CalDAVError) -> URL {
        var text = given.trimmingCharacters(in: .whitespaces)
        for scheme in ["webcals://", "webcal://"] where text.lowercased().hasPrefix(scheme) {
            text = "https://" + text.dropFirst(scheme.count)
        }
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw .input("\"\(given)\" is not a webcal://, https:// or http:// URL")
        }
        return url
    }

    /// Refreshes one subscription; nil when the feed did not change (HTTP 304). A failure is
    /// recorded on the subscription and thrown.
    ///
    /// ```swift
    /// for s in try store.subscriptions() where s.isDue(at: now) {
    ///     _ = try await FeedRefresh.refresh(s, store: store, now: now)
    /// }
    /// ```
    public static func refresh(_ subscription: CalendarSubscription, store: EventStore, now: Instant) async throws -> SubscriptionRefresh? {
        do {
            let url = try fetchURL(subscription.url)
            var headers: [String: String] = [:]
            if let etag = subscription.etag { headers["If-None-Match"] = etag }
            if let modified = subscription.lastModified { headers["If-Modified-Since"] = modified }
            let (response, parsed) = try await fetch(url, headers: headers, file: subscription.url)
            switch response.status {
            case 304:
                try store.recordSubscriptionRefresh(subscription, at: now, error: nil)
                return nil
            case 200:
                return try store.applySubscription(
                    subscription, parsed: try parsed.get(), etag: response.etag,
                    lastModified: response.headers["last-modified"], at: now)
            default:
                throw CalDAVError.http(method: "GET", url: url.absoluteString, status: response.status, detail: CalDAVServer.detail(response.text))
            }
        } catch {
            try? store.recordSubscriptionRefresh(subscription, at: now, error: "\(error)")
            throw error
        }
    }

    /// GETs a feed and reads it as it downloads (its bytes are never held whole): the answer, and
    /// for a 200 what the iCalendar reader made of the body (`file` names it in messages).
    ///
    /// ```swift
    /// let (response, parsed) = try await FeedRefresh.fetch(url, file: url.absoluteString)
    /// if response.status == 200 { print(try parsed.get().items.count) }
    /// ```
    public static func fetch(
        _ url: URL, headers: [String: String] = [:],
        file: String
    ) async throws(CalDAVError) -> (response: DAVResponse, parsed: Result<ICSParseResult, ICSError>) {
        let read = StreamedBody(status: 200) { stream in
            Result { () throws(ICSError) in
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                return try ICalendar.parse(file: file) { () throws(ICSError) -> [UInt8]? in
                    let count = chunk.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
                    guard count >= 0 else { throw ICSError(file: file, line: 0, "the download broke off") }
                    return count == 0 ? nil : Array(chunk[0..<count])
                }
            }
        }
        let response = try await DAVClient().send("GET", url, headers: headers, streaming: read)
        return (response, read.result ?? .failure(ICSError(file: file, line: 0, "the feed is empty: no BEGIN:VCALENDAR in it")))
    }
}
