internal import CXMLShim
import Foundation

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
        let reader = try Reader()
        data.withUnsafeBytes { reader.feed($0, final: true) }
        return try reader.finish()
    }

    /// Parses an answer as it is read from `stream`, a chunk at a time: only what the answer is
    /// about (hrefs, properties, calendar data) is kept, never the body's text as a whole.
    public static func parse(stream: InputStream) throws(MultiStatusError) -> MultiStatus {
        let reader = try Reader()
        stream.open()
        defer { stream.close() }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !reader.failed {
            let count = chunk.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
            if count < 0 {
                throw MultiStatusError(reason: "the answer could not be read (\(stream.streamError.map { "\($0)" } ?? "read failed"))")
            }
            chunk.withUnsafeBytes { reader.feed(UnsafeRawBufferPointer(rebasing: $0[..<count]), final: count == 0) }
            if count == 0 { break }
        }
        return try reader.finish()
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

    /// The status code of a `HTTP/1.1 404 Not Found` line.
    static func code(_ statusLine: String) -> Int? {
        let parts = statusLine.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

public struct MultiStatusError: Error, Sendable { public var reason: String }

/// Reads a multistatus from libxml2's streaming parser: elements by `{namespace}name`, their text
/// as bytes until the element ends.
private final class Reader {
    var result = MultiStatus()
    /// The document element, and whether its end tag came.
    var root: String?
    var closedRoot = false
    /// The parser's first error; nothing is parsed after it.
    private(set) var problem: String?
    var failed: Bool { problem != nil }
    private var parser: OpaquePointer?
    private var stack: [String] = []
    private var text: [UInt8] = []
    private var response: MultiStatus.Response?
    private var found: [String: String] = [:]
    private var foundHrefs: [String: [String]] = [:]
    private var types: Set<String> = []
    private var propstatStatus: Int?

    init() throws(MultiStatusError) {
        if let problem = chime_xml_load() { throw MultiStatusError(reason: String(cString: problem)) }
        // Every stored property has its initial value, so the reader can hand itself over now.
        let events = ChimeXMLEvents(
            context: Unmanaged.passUnretained(self).toOpaque(),
            start: { context, name, uri, attribute, length in
                Reader.from(context).start(name: name!, uri: uri, nameAttribute: attribute, length: Int(length))
            },
            end: { context, _, _ in Reader.from(context).end() },
            text: { context, bytes, length in
                Reader.from(context).text.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: Int(length)))
            }
        )
        guard let parser = chime_xml_reader_new(events) else { throw MultiStatusError(reason: "out of memory") }
        self.parser = parser
    }

    deinit { chime_xml_reader_free(parser) }

    private static func from(_ context: UnsafeMutableRawPointer?) -> Reader {
        Unmanaged<Reader>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Parses the next bytes of the answer; `final` with the last.
    func feed(_ bytes: UnsafeRawBufferPointer, final: Bool) {
        guard problem == nil else { return }
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        if let error = chime_xml_reader_feed(parser, base, Int32(bytes.count), final ? 1 : 0) {
            // At the end of an answer whose root is still open, libxml2 speaks of what it
            // expected next ("Extra content at the end of the document"); the answer was cut off.
            problem = final && root != nil && !closedRoot ? Self.cutOff : String(cString: error)
        }
    }

    /// The answer, once the whole of it was fed: an error unless it was well formed and its
    /// root, a DAV: multistatus, was closed.
    func finish() throws(MultiStatusError) -> MultiStatus {
        if let problem { throw MultiStatusError(reason: problem) }
        guard root == "{DAV:}multistatus" else {
            throw MultiStatusError(reason: root.map { "its root is \($0), not DAV: multistatus" } ?? "it holds no XML element")
        }
        guard closedRoot else { throw MultiStatusError(reason: Self.cutOff) }
        return result
    }

    private static let cutOff = "it ends before its XML does (cut off)"

    /// The `{namespace}name` keys made so far, by their C strings: an answer has a dozen element
    /// names, repeated for each of thousands of responses.
    private var keys: [(name: [CChar], uri: [CChar], key: String)] = []

    private func key(_ name: UnsafePointer<CChar>, _ uri: UnsafePointer<CChar>?) -> String {
        for entry in keys where strcmp(entry.name, name) == 0 && (uri.map { strcmp(entry.uri, $0) == 0 } ?? (entry.uri == [0])) {
            return entry.key
        }
        let made = "{\(uri.map { String(cString: $0) } ?? "")}\(String(cString: name))"
        if keys.count < 64 {
            func copy(_ text: UnsafePointer<CChar>) -> [CChar] { Array(UnsafeBufferPointer(start: text, count: strlen(text) + 1)) }
            keys.append((copy(name), uri.map(copy) ?? [0], made))
        }
        return made
    }

    private static let comp = "{\(MultiStatus.caldav)}comp", calendarData = "{\(MultiStatus.caldav)}calendar-data"
    private static let supportedRScale = "{\(MultiStatus.caldav)}supported-rscale", rscaleSet = "{\(MultiStatus.caldav)}supported-rscale-set"

    private func start(name: UnsafePointer<CChar>, uri: UnsafePointer<CChar>?, nameAttribute: UnsafePointer<CChar>?, length: Int) {
        let key = key(name, uri)
        if root == nil { root = key }
        stack.append(key)
        text.removeAll(keepingCapacity: true)
        switch key {
        case "{DAV:}response": response = MultiStatus.Response(href: "")
        case "{DAV:}propstat": found = [:]; foundHrefs = [:]; types = []; propstatStatus = nil
        case Self.comp:
            if let nameAttribute, stack.count >= 2 {
                let component = String(decoding: UnsafeRawBufferPointer(start: nameAttribute, count: length), as: UTF8.self)
                let owner = stack[stack.count - 2]
                found[owner] = (found[owner].map { $0 + "," } ?? "") + component
            }
        default: break
        }
        if stack.count >= 2 && stack[stack.count - 2] == "{DAV:}resourcetype" { types.insert(key) }
    }

    private func end() {
        // libxml2 reports an end only for the element open last (a mismatch is an error first).
        let key = stack.removeLast()
        if stack.isEmpty { closedRoot = true }
        let parent = stack.last ?? ""
        let grandparent = stack.count >= 2 ? stack[stack.count - 2] : ""
        // The text as sent, copied to its own size (a calendar's data, kilobytes); trimmed where
        // white space around it is not part of it (not the calendar data, which is most of it).
        let whole = String(decoding: text, as: UTF8.self)
        var trimmed: String { Self.trimmed(whole) }
        switch (key, parent) {
        case ("{DAV:}href", "{DAV:}response"):
            let href = trimmed
            response?.href = PercentEncoding.decoded(href) ?? href
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
            let href = trimmed
            let decoded = PercentEncoding.decoded(href) ?? href
            found[parent] = decoded
            foundHrefs[parent, default: []].append(decoded)
        case (Self.supportedRScale, Self.rscaleSet):
            // RFC 7529 §5.2.1: one element per calendar, listed comma-separated like components.
            found[parent] = (found[parent].map { $0 + "," } ?? "") + trimmed
        case (Self.calendarData, "{DAV:}prop"):
            found[key] = whole  // untrimmed: the iCalendar text as sent
        case (_, "{DAV:}prop"):
            if found[key] == nil { found[key] = trimmed }
        default: break
        }
        text.removeAll(keepingCapacity: true)
    }

    /// `text` without white space and line breaks at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex { !$0.properties.isWhitespace }!
        return first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) ? text : String(scalars[first...last])
    }
}
