import Foundation

/// Opens an item's URL when the user activates its notification (clicks the body or "Open").
///
/// The daemon uses ``XDGOpener`` (ChimeDesktop), which runs `xdg-open URL`; tests use a recording
/// double. The scheduler only ever hands it a URL that passed ``OpenableURL/check(_:)``.
///
/// ```swift
/// let scheduler = AlarmScheduler(store: store, sink: sink, clock: clock, opener: XDGOpener())
/// ```
public protocol URLOpener: Sendable {
    /// Starts opening `url` and returns without waiting for the application that shows it.
    func open(_ url: String) throws(OpenError)
}

/// Why a URL could not be opened.
public struct OpenError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Which item URLs a notification may open: `http:`, `https:` and `mailto:` only.
///
/// An item's URL comes from anywhere (an imported `.ics` file is hostile input): `file:` would
/// open (or run, through a desktop file) something on this machine, and other schemes hand the
/// text to whatever handler the desktop registered for them. So the rule is a short allow-list,
/// and the text must be one plain token: no spaces or control characters, nothing before the
/// scheme, something after it.
///
/// ```swift
/// OpenableURL.check("https://example.org/meeting")   // "https://example.org/meeting"
/// OpenableURL.check(" MAILTO:ann@example.org ")      // "MAILTO:ann@example.org"
/// OpenableURL.check("file:///etc/passwd")            // nil
/// ```
public enum OpenableURL {
    public static let schemes: Set<String> = ["http", "https", "mailto"]
    /// Longer text is not a link anyone typed (and would only make a huge argument vector).
    public static let maximumLength = 4_096

    /// `text` without surrounding whitespace when it may be opened, else nil.
    public static func check(_ text: String?) -> String? {
        guard let text else { return nil }
        let url = text.trimmingWhitespace
        guard !url.isEmpty, url.utf8.count <= maximumLength,
            !url.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
                    || $0.properties.generalCategory == .format || $0.properties.generalCategory == .control
            }),
            let colon = url.firstIndex(of: ":")
        else { return nil }
        let scheme = url[..<colon].lowercased()
        let rest = url[url.index(after: colon)...]
        guard schemes.contains(scheme), !rest.isEmpty else { return nil }
        if scheme == "mailto" { return mailtoWithoutAttachments(url) }
        // "http:" alone or "https:foo" is no web address; require the "//host" form.
        guard rest.hasPrefix("//"), rest.count > 2 else { return nil }
        return url
    }

    /// The header fields a `mailto:` link may carry to the mail program (RFC 6068); others, above
    /// all `attach`/`attachment`, which Thunderbird and Evolution read as files to attach
    /// (`mailto:x@example.org?attach=/etc/shadow`), are dropped.
    public static let mailtoFields: Set<String> = ["to", "cc", "bcc", "subject", "body", "in-reply-to"]

    /// `url` with only the ``mailtoFields`` in its query, names compared after percent-decoding
    /// (`%61ttach` is `attach`).
    static func mailtoWithoutAttachments(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let kept = url[url.index(after: question)...].split(separator: "&").filter { field in
            let name = String(field.prefix { $0 != "=" })
            return mailtoFields.contains((name.removingPercentEncoding ?? name).lowercased())
        }
        return String(url[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
