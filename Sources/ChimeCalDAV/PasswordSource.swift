import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where an account's password comes from, never from the config or the store: the account's
/// password command (as vdirsyncer, khal and aerc do: `pass show dav`, `secret-tool lookup
/// service caldav user ana`), else a prompt when a terminal is attached.
public enum PasswordSource {
    /// The password for `account`: the first line its command prints, else one typed at a prompt.
    ///
    /// ```swift
    /// let password = try PasswordSource.password(for: account, interactive: true)
    /// ```
    public static func password(for account: SyncAccountCredentials, interactive: Bool) throws(CalDAVError) -> String {
        if let command = account.passwordCommand, !command.isEmpty {
            return try run(command, account: account.name)
        }
        guard interactive, isatty(0) == 1 else {
            throw .password("account \"\(account.name)\": no password command and no terminal to ask on; "
                            + "set one with `chime account add \(account.name) … --password-command 'CMD'`")
        }
        guard let typed = getpass("Password for \(account.username) (\(account.name)): ") else {
            throw .password("account \"\(account.name)\": no password typed")
        }
        return String(cString: typed)
    }

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
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .password("account \"\(account)\": the password command failed (exit \(process.terminationStatus))"
                            + (message.isEmpty ? "" : ": " + message.trimmingCharacters(in: .whitespacesAndNewlines)))
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
    var passwordCommand: String? { get }
}

import ChimeStore
extension SyncAccount: SyncAccountCredentials {}
