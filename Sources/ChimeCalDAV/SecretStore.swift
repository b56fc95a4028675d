/// Which Secret Service entry holds an account's password: Chime's schema
/// (`io.github.chime.CalDAV`) with the account's name, URL and user as attributes, so
/// `secret-tool lookup account home` finds it too.
public struct SecretKey: Hashable, Sendable {
    public var account: String
    public var url: String
    public var user: String

    public init(account: String, url: String, user: String) {
        self.account = account
        self.url = url
        self.user = user
    }

    /// The name a keyring manager (Seahorse, KeePassXC) shows for the entry.
    public var label: String { "Chime CalDAV account \(account) (\(user) at \(url))" }
}

/// Why the Secret Service could not be used.
public enum SecretStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No Secret Service on the session bus, no session bus, or none answered in time.
    case unavailable(String)
    /// There is one, and it refused or failed (a locked keyring whose prompt was dismissed …).
    case failed(String)

    public var description: String {
        switch self {
        case .unavailable(let why): "no Secret Service: \(why)"
        case .failed(let why): "the Secret Service failed: \(why)"
        }
    }
}

/// Where passwords can be kept other than in plain text: the desktop's Secret Service
/// (``SecretService``), or a stand-in in tests.
///
/// ```swift
/// let key = SecretKey(account: "home", url: "https://dav.example.org/", user: "ana")
/// try SecretService().store("s3cret", for: key)
/// let password = try SecretService().lookup(key)   // "s3cret"
/// ```
public protocol SecretStore: Sendable {
    /// The password kept for `key`, nil when there is none.
    func lookup(_ key: SecretKey) throws(SecretStoreError) -> String?
    /// Keeps `password` for `key`, replacing what was there.
    func store(_ password: String, for key: SecretKey) throws(SecretStoreError)
    /// Forgets the password kept for `key`; true when there was one.
    @discardableResult func clear(_ key: SecretKey) throws(SecretStoreError) -> Bool
}
