import Foundation

/// A collection on the server, as a PROPFIND of the calendar home lists it.
public struct RemoteCollection: Hashable, Sendable {
    /// Absolute URL, ending in `/`.
    public var url: String
    public var displayName: String
    /// `VEVENT`, `VTODO` …; empty when the server does not say (then it takes everything).
    public var components: Set<String>
    public var color: String?
    /// RFC 7529 `supported-rscale-set` (upper case); nil when the server lists none.
    public var rscales: Set<String>? = nil

    public var takesEvents: Bool { components.isEmpty || components.contains("VEVENT") }
    public var takesReminders: Bool { components.isEmpty || components.contains("VTODO") }
}

/// The CalDAV requests Chime makes (RFC 4791, RFC 6578, RFC 6764), each one method.
public struct CalDAVServer: Sendable {
    public let client: DAVClient

    public init(client: DAVClient) { self.client = client }

    /// Finds the principal and calendar home from what the user typed: the URL itself, else its
    /// `/.well-known/caldav` (RFC 6764).
    public func discover(_ given: URL) async throws(CalDAVError) -> (principal: URL, home: URL, addresses: [String]) {
        var lastError: CalDAVError?
        var candidates = [given]
        if let wellKnown = URL(string: "/.well-known/caldav", relativeTo: given)?.absoluteURL { candidates.append(wellKnown) }
        for start in candidates {
            do {
                let principal = try await href(of: "current-user-principal", at: start, namespace: MultiStatus.dav) ?? start
                let answer = try await caldavProperties(["calendar-home-set", "calendar-user-address-set"], of: principal)
                guard let value = answer?.properties["{\(MultiStatus.caldav)}calendar-home-set"], !value.isEmpty,
                    let home = Self.resolve(value, against: principal)
                else {
                    lastError = .malformed(url: principal.absoluteString, reason: "no calendar-home-set: is this a CalDAV server?")
                    continue
                }
                // Who the user is on this server (RFC 6638 §2.4.1): their mailto: and other addresses.
                return (principal, home, answer?.hrefLists["{\(MultiStatus.caldav)}calendar-user-address-set"] ?? [])
            } catch {
                if case .authentication = error { throw error }
                lastError = error
            }
        }
        if case .http(let method, _, let status, _)? = lastError {
            throw .malformed(
                url: given.absoluteString,
                reason: "no CalDAV server answers here (\(method) answered HTTP \(status) at this URL and at /.well-known/caldav); check --url")
        }
        throw lastError ?? .malformed(url: given.absoluteString, reason: "not a CalDAV server")
    }

    /// The principal's `calendar-user-address-set` (RFC 6638 §2.4.1): the user's calendar addresses.
    public func addresses(of principal: URL) async throws(CalDAVError) -> [String] {
        try await caldavProperties(["calendar-user-address-set"], of: principal)?.hrefLists["{\(MultiStatus.caldav)}calendar-user-address-set"] ?? []
    }

    /// One resource's CalDAV properties (a Depth 0 PROPFIND).
    private func caldavProperties(_ names: [String], of url: URL) async throws(CalDAVError) -> MultiStatus.Response? {
        let props = names.map { "<C:\($0)/>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop>\(props)</D:prop></D:propfind>
            """
        return try await multistatus("PROPFIND", url, body: body, headers: ["Depth": "0"]).responses.first
    }

    private func href(of property: String, at url: URL, namespace: String) async throws(CalDAVError) -> URL? {
        let prefix = namespace == MultiStatus.dav ? "D" : "C"
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><\(prefix):\(property)/></D:prop></D:propfind>
            """
        let response = try await multistatus("PROPFIND", url, body: body, headers: ["Depth": "0"])
        guard let value = response.responses.first?.properties["{\(namespace)}\(property)"], !value.isEmpty else { return nil }
        return Self.resolve(value, against: url)
    }

    /// The calendar collections in the home, with their component sets. No ctag or sync token:
    /// Radicale computes both from every item of every collection (635 ms for 6,000 items
    /// against 2 ms without them), and the sync-collection that follows gives the token anyway.
    public func collections(home: URL) async throws(CalDAVError) -> [RemoteCollection] {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">
            <D:prop><D:resourcetype/><D:displayname/><C:supported-calendar-component-set/><C:supported-rscale-set/><A:calendar-color/></D:prop>
            </D:propfind>
            """
        let response = try await multistatus("PROPFIND", home, body: body, headers: ["Depth": "1"])
        return response.responses.compactMap { r -> RemoteCollection? in
            guard r.resourceTypes.contains("{\(MultiStatus.caldav)}calendar"), let url = Self.resolve(r.href, against: home) else { return nil }
            let components = Set(
                (r.properties["{\(MultiStatus.caldav)}supported-calendar-component-set"] ?? "")
                    .split(separator: ",").map { $0.uppercased() })
            let name =
                r.properties["{DAV:}displayname"].flatMap { $0.isEmpty ? nil : $0 }
                ?? url.path.split(separator: "/").last.map(String.init) ?? url.path
            let color = r.properties["{\(MultiStatus.apple)}calendar-color"].map { String($0.prefix(7)) }.flatMap {
                $0.hasPrefix("#") && $0.count == 7 ? $0 : nil
            }
            let rscales = r.properties["{\(MultiStatus.caldav)}supported-rscale-set"]
                .map { Set($0.split(separator: ",").map { $0.uppercased() }) }
            return RemoteCollection(
                url: Self.directory(url.absoluteString), displayName: name, components: components, color: color,
                rscales: rscales)
        }
    }

    /// Creates a calendar collection in the calendar home (RFC 4791 MKCALENDAR) named `title`,
    /// taking `components` (`VEVENT`, `VTODO`), with Apple's `calendar-color` when given. The
    /// collection's path is a fresh UUID: a title may hold anything, and two devices adding the
    /// same title never collide. Returns its URL once the server answered 201 Created.
    ///
    /// ```swift
    /// let work = try await server.makeCalendar(in: home, title: "Work", components: ["VEVENT"], color: "#3366CC")
    /// ```
    public func makeCalendar(in home: URL, title: String, components: [String], color: String?) async throws(CalDAVError) -> URL {
        let url = home.appendingPathComponent(UUID().uuidString.lowercased() + "/")
        let comps = components.map { "<C:comp name=\"\($0)\"/>" }.joined()
        let colorProperty = color.map { "<A:calendar-color>\(Self.escape($0))</A:calendar-color>" } ?? ""
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">
            <D:set><D:prop><D:displayname>\(Self.escape(title))</D:displayname>\(colorProperty)
            <C:supported-calendar-component-set>\(comps)</C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>
            """
        let response = try await client.send("MKCALENDAR", url, body: body)
        guard response.status == 201 else {
            throw .http(method: "MKCALENDAR", url: url.absoluteString, status: response.status, detail: Self.detail(response.text))
        }
        return url
    }

    /// Changes since `token` (all members with nil): RFC 6578 sync-collection, ETags only
    /// (Xandikos never returns calendar-data here). No `DAV:limit`: a server that honours it
    /// may cut the answer and still return the final token.
    public func changes(in collection: URL, since token: String?) async throws(CalDAVError) -> MultiStatus {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:sync-collection xmlns:D="DAV:"><D:sync-token>\(Self.escape(token ?? ""))</D:sync-token><D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>
            """
        return try await multistatus("REPORT", collection, body: body, headers: ["Depth": "0"])
    }

    /// Every member and its ETag (PROPFIND, Depth 1): the full listing for a server that does
    /// not answer RFC 6578 sync-collection. The answer has no sync token.
    public func members(in collection: URL) async throws(CalDAVError) -> MultiStatus {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop><D:getetag/><D:resourcetype/></D:prop></D:propfind>
            """
        return try await multistatus("PROPFIND", collection, body: body, headers: ["Depth": "1"])
    }

    /// The iCalendar text and ETag of these members (calendar-multiget), by href.
    public func fetch(_ hrefs: [String], in collection: URL) async throws(CalDAVError) -> [String: (etag: String?, text: String)] {
        var result: [String: (etag: String?, text: String)] = [:]
        var start = 0
        while start < hrefs.count {
            let batch = hrefs[start..<min(start + 100, hrefs.count)]
            start += 100
            let list = batch.map { "<D:href>\(Self.escape(Self.encodePath($0)))</D:href>" }.joined()
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>\(list)</C:calendar-multiget>
                """
            let response = try await multistatus("REPORT", collection, body: body, headers: ["Depth": "1"])
            for r in response.responses {
                guard let text = r.properties["{\(MultiStatus.caldav)}calendar-data"] else { continue }
                result[r.href] = (r.properties["{DAV:}getetag"], text)
            }
        }
        return result
    }

    /// Writes a member: `If-None-Match: *` to create (etag nil), `If-Match` to change. Never
    /// unconditional. Returns the status and the new ETag if the server sent one.
    public func put(_ text: String, at href: String, in collection: URL, ifMatch etag: String?) async throws(CalDAVError) -> (status: Int, etag: String?) {
        let url = try member(href, in: collection)
        let condition = etag.map { ["If-Match": $0] } ?? ["If-None-Match": "*"]
        let response = try await client.send("PUT", url, body: text, headers: condition)
        return (response.status, response.etag)
    }

    /// What a DELETE came to: the server's status, or not sent and why.
    public enum DeleteOutcome: Equatable, Sendable {
        case status(Int)
        case notSent(String)
    }

    /// One step of a DELETE, which never goes out without `If-Match`.
    enum DeleteStep: Equatable {
        /// Send it with these headers.
        case send(headers: [String: String])
        /// No ETag known (a server may answer a PUT without one): fetch the member's first.
        case fetchETag
        /// Not on the server any more: nothing to send.
        case gone
        /// Not sent, and why.
        case skip(String)
    }

    /// The first step: conditional on the ETag we know, else fetch it.
    static func deleteStep(knownETag: String?) -> DeleteStep {
        guard let etag = knownETag else { return .fetchETag }
        return .send(headers: ["If-Match": etag])
    }

    /// After fetching the member: conditional on its current ETag, but only when its copy is the
    /// one we know (`knownCopy`), so a version changed there is never removed unseen.
    static func deleteStep(fetched: (etag: String?, text: String)?, knownCopy: String?) -> DeleteStep {
        guard let fetched else { return .gone }
        guard let etag = fetched.etag else { return .skip("the server gives no ETag for it, and Chime never removes without one") }
        guard let knownCopy, fetched.text == knownCopy else { return .skip("it changed on the server since Chime last saw it") }
        return .send(headers: ["If-Match": etag])
    }

    /// Deletes a member, only if it is still the version we know: `If-Match` the ETag we have,
    /// else the one fetched first when the member's copy is still `knownCopy`; never unconditional.
    public func delete(_ href: String, in collection: URL, ifMatch etag: String?, knownCopy: String?) async throws(CalDAVError) -> DeleteOutcome {
        let url = try member(href, in: collection)
        var step = Self.deleteStep(knownETag: etag)
        if step == .fetchETag {
            step = Self.deleteStep(fetched: try await fetch([href], in: collection)[href], knownCopy: knownCopy)
        }
        switch step {
        case .send(let headers): return .status(try await client.send("DELETE", url, headers: headers).status)
        case .gone: return .status(404)
        case .skip(let why): return .notSent(why)
        case .fetchETag: return .notSent("no ETag")
        }
    }

    /// Moves a member into another collection of the same server (WebDAV MOVE, RFC 4918 §9.9),
    /// only if it is still the version we know (`If-Match`), never over an existing member
    /// (`Overwrite: F`): how an item changes calendars on a server that keeps each UID once in a
    /// whole calendar home (RFC 4791 `no-uid-conflict`, as Cyrus does). Not sent without an ETag.
    public func move(
        _ href: String, in collection: URL, to destination: String, in target: URL,
        ifMatch etag: String?
    ) async throws(CalDAVError) -> DeleteOutcome {
        guard let etag else { return .notSent("no ETag is known for it, and Chime never moves without one") }
        let from = try member(href, in: collection), to = try member(destination, in: target)
        return .status(
            try await client.send(
                "MOVE", from,
                headers: [
                    "Destination": to.absoluteString, "Overwrite": "F",
                    "If-Match": etag
                ]
            ).status)
    }

    private func member(_ href: String, in collection: URL) throws(CalDAVError) -> URL {
        guard let url = URL(string: Self.encodePath(href), relativeTo: collection)?.absoluteURL else {
            throw .malformed(url: collection.absoluteString, reason: "cannot make a URL of \(href)")
        }
        return url
    }

    private func multistatus(_ method: String, _ url: URL, body: String, headers: [String: String]) async throws(CalDAVError) -> MultiStatus {
        // Parsed as it arrives: a large answer is never held whole beside what is made of it.
        let parsed = MultiStatus.parsedAsItArrives()
        let response = try await client.send(method, url, body: body, headers: headers, streaming: parsed)
        guard response.status == 207 else {
            throw .http(method: method, url: url.absoluteString, status: response.status, detail: Self.detail(response.text))
        }
        switch parsed.result ?? .failure(MultiStatusError(reason: "it is empty")) {
        case .success(let answer): return answer
        case .failure(let error):
            throw .malformed(url: url.absoluteString, reason: "the \(method) answer is not WebDAV XML: \(error.reason)")
        }
    }

    /// The first line of an error body, short (servers send HTML pages or XML error elements).
    static func detail(_ body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return String(line.prefix(200))
    }

    /// A server-given href as a URL; nil for one that leaves https for http or http(s) for another
    /// scheme (the password would go out in clear, or nowhere it should), as redirects are refused.
    static func resolve(_ href: String, against base: URL) -> URL? {
        guard let url = URL(string: encodePath(href), relativeTo: base)?.absoluteURL, let to = HTTPOrigin(url) else { return nil }
        if base.scheme?.lowercased() == "https" && to.scheme != "https" { return nil }
        return url
    }

    /// Percent-encodes what a path may not hold as is.
    static func encodePath(_ path: String) -> String {
        if path.hasPrefix("http://") || path.hasPrefix("https://") { return path }
        return PercentEncoding.encodedPath(path)
    }

    static func directory(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

    /// `&`, `<` and `>` as XML entities, for text inside an element.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
