import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Where an account's password comes from, never from the config or the store: the account's
/// password command when it has one (an explicit choice wins; as vdirsyncer, khal and aerc do:
/// `pass show dav`), else the desktop's Secret Service (where `chime account add` put it), else
/// a prompt when a terminal is attached.
public enum PasswordSource {
    /// The password for `account`: the first line its command prints, else the one in `secrets`,
    /// else one typed at a prompt.
    ///
    /// ```swift
    /// let password = try PasswordSource.password(for: account, interactive: true)
    /// ```
    public static func password(
        for account: SyncAccountCredentials, interactive: Bool,
        secrets: SecretStore = SecretService()
    ) throws(CalDAVError) -> String {
        if let command = account.passwordCommand, !command.isEmpty {
            return try run(command, account: account.name)
        }
        let why: String
        do {
            if let kept = try secrets.lookup(account.secretKey) { return kept }
            why = "no password for it in the Secret Service"
        } catch {
            why = "\(error)"
        }
        guard interactive, isatty(0) == 1 else {
            throw .password(
                "account \"\(account.name)\": no password command, \(why), and no terminal to ask on; "
                    + "add the account again (`chime account remove \(account.name)`, then `chime account add`) "
                    + "with --password-command 'CMD', or where a Secret Service runs")
        }
        return try prompt(for: account)
    }

    /// A password typed at the terminal (not echoed).
    public static func prompt(for account: SyncAccountCredentials) throws(CalDAVError) -> String {
        guard isatty(0) == 1 else { throw .password("account \"\(account.name)\": no terminal to ask for the password on") }
        guard let typed = getpass("Password for \(account.username) (\(account.name)): ") else {
            throw .password("account \"\(account.name)\": no password typed")
        }
        return String(cString: typed)
    }

    /// How long a password command may take (a pinentry dialog waits for a person).
    static let commandTimeout: Double = 120

    private static func run(_ command: String, account: String) throws(CalDAVError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw .password("account \"\(account)\": cannot run the password command: \(error)")
        }
        // Read as it comes (never block on a pipe a left-over child still holds), up to the timeout.
        var data = [UInt8](), message = [UInt8]()
        for fd in [out.fileHandleForReading.fileDescriptor, err.fileHandleForReading.fileDescriptor] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            for (fd, isOut) in [(out.fileHandleForReading.fileDescriptor, true), (err.fileHandleForReading.fileDescriptor, false)] {
                while true {
                    let n = read(fd, &buffer, buffer.count)
                    guard n > 0 else { break }
                    if isOut { data += buffer[0..<n] } else { message += buffer[0..<n] }
                }
            }
        }
        let deadline = Date().addingTimeInterval(commandTimeout)
        while process.isRunning && Date() < deadline {
            drain()
            usleep(20_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw .password("account \"\(account)\": the password command did not finish within \(Int(commandTimeout)) s; it was stopped")
        }
        drain()
        let errorText = String(decoding: message, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw .password(
                "account \"\(account)\": the password command failed (exit \(process.terminationStatus))"
                    + (errorText.isEmpty ? "" : ": " + errorText.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !line.isEmpty else { throw .password("account \"\(account)\": the password command printed nothing") }
        return line
    }
}

/// What ``PasswordSource`` needs to know of an account.
public protocol SyncAccountCredentials {
    var name: String { get }
    var username: String { get }
    var url: String { get }
    var passwordCommand: String? { get }
}

extension SyncAccountCredentials {
    /// The account's entry in the Secret Service.
    public var secretKey: SecretKey { SecretKey(account: name, url: url, user: username) }
}

import ChimeStore
extension SyncAccount: SyncAccountCredentials {}
