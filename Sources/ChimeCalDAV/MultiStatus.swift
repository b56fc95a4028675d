import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A WebDAV `207 Multi-Status` answer (RFC 4918 §13), read by namespace URI, never by prefix:
/// servers differ (Radicale writes a default namespace, Xandikos `ns0:`), and put
/// `<sync-token>` first or last.
public struct MultiStatus: Sendable {
    public struct Response: Sendable {
        /// The href, percent-decoded (servers differ on which characters they encode).
        public var href: String
        /// A status of the response itself: in sync-collection, 404 means deleted.
        public var status: Int?
        /// Properties found (status 200), by `{namespace}name`; text, or for an href-valued
        /// property its href, or for a component set the names joined by ",".
        public var properties: [String: String] = [:]
        /// Every href of an href-valued property, in order (`calendar-user-address-set` lists several).
        public var hrefLists: [String: [String]] = [:]
        /// Names of the resource types (`{DAV:}collection`, `{urn:ietf:params:xml:ns:caldav}calendar`).
        public var resourceTypes: Set<String> = []
    }

    public var responses: [Response] = []
    public var syncToken: String?

    public static let dav = "DAV:", caldav = "urn:ietf:params:xml:ns:caldav", calendarServer = "http://calendarserver.org/ns/"
    public static let apple = "http://apple.com/ns/ical/"

    /// Parses an answer body. Throws a description when it is not XML.
    public static func parse(_ data: Data) throws(MultiStatusError) -> MultiStatus {
        try parse(with: XMLParser(data: data))
    }

    /// Parses an answer as it is read from `stream`, a chunk at a time: only what the answer is
    /// about (hrefs, properties, calendar data) is kept, never the body's text as a whole.
    public static func parse(stream: InputStream) throws(MultiStatusError) -> MultiStatus {
        try parse(with: XMLParser(stream: stream))
    }

    /// A 207 answer's body parsed as it arrives, for ``DAVClient/send(_:_:body:headers:streaming:)``.
    ///
    /// ```swift
    /// let parsed = MultiStatus.parsedAsItArrives()
    /// let response = try await client.send("PROPFIND", url, body: query, streaming: parsed)
    /// let answer = try parsed.result?.get()
    /// ```
    public static func parsedAsItArrives() -> StreamedBody<Result<MultiStatus, MultiStatusError>> {
        StreamedBody(status: 207) { stream in Result { () throws(MultiStatusError) in try parse(stream: stream) } }
    }

    private static func parse(with parser: XMLParser) throws(MultiStatusError) -> MultiStatus {
        let reader = Reader()
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        guard parser.parse() else {
            throw MultiStatusError(reason: parser.parserError.map { "\($0.localizedDescription)" } ?? "not XML")
        }
        // Foundation's parser on Linux reports success for a document cut off mid-element: the
        // answer counts only when its root, a DAV: multistatus, was closed.
        guard reader.root == "{DAV:}multistatus" else {
            throw MultiStatusError(reason: reader.root.map { "its root is \($0), not DAV: multistatus" } ?? "it holds no XML element")
        }
        guard reader.closedRoot else { throw MultiStatusError(reason: "it ends before its XML does (cut off)") }
        return reader.result
    }

    /// The status code of a `HTTP/1.1 404 Not Found` line.
    static func code(_ statusLine: String) -> Int? {
        let parts = statusLine.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

public struct MultiStatusError: Error, Sendable { public var reason: String }

private final class Reader: NSObject, XMLParserDelegate {
    var result = MultiStatus()
    /// The document element, and whether its end tag came.
    var root: String?
    var closedRoot = false
    private var stack: [String] = []
    private var text = ""
    private var response: MultiStatus.Response?
    private var found: [String: String] = [:]
    private var foundHrefs: [String: [String]] = [:]
    private var types: Set<String> = []
    private var propstatStatus: Int?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let key = "{\(namespaceURI ?? "")}\(name)"
        if root == nil { root = key }
        stack.append(key)
        text = ""
        switch key {
        case "{DAV:}response": response = MultiStatus.Response(href: "")
        case "{DAV:}propstat": found = [:]; foundHrefs = [:]; types = []; propstatStatus = nil
        case "{\(MultiStatus.caldav)}comp":
            if let component = attributes["name"], stack.count >= 2 {
                let owner = stack[stack.count - 2]
                found[owner] = (found[owner].map { $0 + "," } ?? "") + component
            }
        default: break
        }
        if stack.count >= 2 && stack[stack.count - 2] == "{DAV:}resourcetype" { types.insert(key) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let key = "{\(namespaceURI ?? "")}\(name)"
        stack.removeLast()
        if stack.isEmpty { closedRoot = true }
        let parent = stack.last ?? ""
        let grandparent = stack.count >= 2 ? stack[stack.count - 2] : ""
        // Only the ends are looked at: Foundation's trimming reads the whole text (a calendar's
        // data, kilobytes, on every element end), which doubled the time of a large answer.
        let trimmed = Self.trimmed(text)
        switch (key, parent) {
        case ("{DAV:}href", "{DAV:}response"):
            response?.href = trimmed.removingPercentEncoding ?? trimmed
        case ("{DAV:}status", "{DAV:}response"):
            response?.status = MultiStatus.code(trimmed)
        case ("{DAV:}status", "{DAV:}propstat"):
            propstatStatus = MultiStatus.code(trimmed)
        case ("{DAV:}propstat", _):
            if propstatStatus == nil || propstatStatus == 200 {
                for (k, v) in found { response?.properties[k] = v }
                for (k, v) in foundHrefs { response?.hrefLists[k, default: []] += v }
                response?.resourceTypes.formUnion(types)
            }
        case ("{DAV:}response", _):
            if let r = response { result.responses.append(r) }
            response = nil
        case ("{DAV:}sync-token", "{DAV:}multistatus"):
            result.syncToken = trimmed
        case ("{DAV:}href", _) where grandparent == "{DAV:}prop":
            found[parent] = trimmed.removingPercentEncoding ?? trimmed
            foundHrefs[parent, default: []].append(trimmed.removingPercentEncoding ?? trimmed)
        case ("{\(MultiStatus.caldav)}supported-rscale", "{\(MultiStatus.caldav)}supported-rscale-set"):
            // RFC 7529 §5.2.1: one element per calendar, listed comma-separated like components.
            found[parent] = (found[parent].map { $0 + "," } ?? "") + trimmed
        case ("{\(MultiStatus.caldav)}calendar-data", "{DAV:}prop"):
            // Untrimmed: the iCalendar text as sent. Copied to its own size: the text grew by
            // appending, and its buffer can be twice as large, held for as long as the answer.
            found[key] = text.utf8.withContiguousStorageIfAvailable { String(decoding: $0, as: UTF8.self) } ?? text
        case (_, "{DAV:}prop"):
            if found[key] == nil { found[key] = trimmed }
        default: break
        }
        text = ""
    }

    /// `text` without white space and line breaks at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex { !$0.properties.isWhitespace }!
        return first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) ? text : String(scalars[first...last])
    }
}
