internal import CLibsecret
import Foundation

/// The desktop's Secret Service (GNOME Keyring, KeePassXC, KWallet) through libsecret.
///
/// Every call first asks the session bus to start `org.freedesktop.secrets` within
/// ``startTimeout``: with no Secret Service the answer is "unavailable" at once (or after that
/// bound), never after the 25 s a D-Bus activation may wait. Then libsecret's synchronous call
/// runs with a cancellable that ``operationTimeout`` cancels (an unlock prompt waits for a person).
///
/// ```swift
/// let vault = SecretService()
/// let key = SecretKey(account: "home", url: "https://dav.example.org/", user: "ana")
/// try vault.store("s3cret", for: key)
/// ```
public struct SecretService: SecretStore {
    /// How long the bus may take to say whether there is a Secret Service (starting it included).
    public var startTimeout: Double
    /// How long one libsecret call may take once the service is there.
    public var operationTimeout: Double

    public init(startTimeout: Double = 5, operationTimeout: Double = 120) {
        self.startTimeout = startTimeout
        self.operationTimeout = operationTimeout
    }

    public func lookup(_ key: SecretKey) throws(SecretStoreError) -> String? {
        try start()
        var error: UnsafeMutablePointer<GError>?
        let found = withTimeout { chime_secret_lookup(key.account, key.url, key.user, $0, &error) }
        if let failure = Self.message(of: &error) { throw .failed(failure) }
        guard let found else { return nil }
        defer { chime_secret_password_free(found) }  // libsecret wipes the memory before freeing it
        return String(cString: found)
    }

    public func store(_ password: String, for key: SecretKey) throws(SecretStoreError) {
        try start()
        var error: UnsafeMutablePointer<GError>?
        let ok = withTimeout { chime_secret_store(key.account, key.url, key.user, key.label, password, $0, &error) }
        if let failure = Self.message(of: &error) { throw .failed(failure) }
        if ok == 0 { throw .failed("the password was not stored") }
    }

    @discardableResult
    public func clear(_ key: SecretKey) throws(SecretStoreError) -> Bool {
        try start()
        var error: UnsafeMutablePointer<GError>?
        let removed = withTimeout { chime_secret_clear(key.account, key.url, key.user, $0, &error) }
        if let failure = Self.message(of: &error) { throw .failed(failure) }
        return removed != 0
    }

    /// Whether a Secret Service answers on the session bus (started if it is activatable).
    public func isAvailable() -> Bool {
        do { try start(); return true } catch { return false }
    }

    private func start() throws(SecretStoreError) {
        if let problem = chime_secret_library_problem() { throw .unavailable(String(cString: problem)) }
        var error: UnsafeMutablePointer<GError>?
        if chime_secret_service_start(gint(startTimeout * 1000), &error) == 0 {
            throw .unavailable(Self.message(of: &error) ?? "the session bus did not answer")
        }
    }

    /// Where the timeouts run out: a serial queue, whose thread libdispatch does not monitor. Work on
    /// a global queue would start libdispatch's one-second pool monitor, which then wakes the daemon
    /// every second for the rest of its life.
    private static let timeouts = DispatchQueue(label: "chime-secret-timeouts")

    /// Runs `body` with a cancellable that is cancelled after ``operationTimeout``.
    private func withTimeout<T>(_ body: (UnsafeMutablePointer<GCancellable>?) -> T) -> T {
        let canceller = Canceller()
        Self.timeouts.asyncAfter(deadline: .now() + operationTimeout) { canceller.cancel() }
        defer { canceller.finish() }
        return body(canceller.cancellable)
    }

    private static func message(of error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let failure = error else { return nil }
        defer { g_error_free(failure); error = nil }
        return failure.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// A GCancellable the timer may cancel until the call is over (then it is released, never
/// cancelled late).
private final class Canceller: @unchecked Sendable {
    let cancellable = g_cancellable_new()
    private let lock = NSLock()
    private var done = false

    func cancel() {
        lock.lock(); defer { lock.unlock() }
        if !done { g_cancellable_cancel(cancellable) }
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        done = true
    }

    deinit { g_object_unref(cancellable) }
}
