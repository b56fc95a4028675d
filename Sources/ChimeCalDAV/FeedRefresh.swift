import ChimeCore
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
            let response = try await DAVClient().send("GET", url, headers: headers)
            switch response.status {
            case 304:
                try store.recordSubscriptionRefresh(subscription, at: now, error: nil)
                return nil
            case 200:
                return try store.applySubscription(subscription, feed: Array(response.body), etag: response.etag,
                                                   lastModified: response.headers["last-modified"], at: now)
            default:
                throw CalDAVError.http(method: "GET", url: url.absoluteString, status: response.status, detail: CalDAVServer.detail(response.text))
            }
        } catch {
            try? store.recordSubscriptionRefresh(subscription, at: now, error: "\(error)")
            throw error
        }
    }
}
