import ChimeCalDAV
import Foundation
import Glibc
import Testing

/// A calendar home of its own on the harness's Radicale: a user no other test uses.
public struct CalDAVHome: Sendable {
    public let url: String
    public let user: String
    public let password: String
    /// The calendar home (Radicale: `/USER/`; Xandikos: `/USER/calendars/`).
    public var homeURL: URL
    /// The server started for this home alone (Xandikos), stopped when the home goes.
    public var server: XandikosServer? = nil

    public init(url: String, user: String, password: String, homeURL: URL? = nil, server: XandikosServer? = nil) {
        self.url = url
        self.user = user
        self.password = password
        self.homeURL = homeURL ?? URL(string: url)!.appendingPathComponent(user + "/")
        self.server = server
    }

    /// A home on the given server: the harness's Radicale, or a Xandikos of its own.
    public static func on(_ kind: CalDAVServerKind) throws -> CalDAVHome {
        switch kind {
        case .radicale: return try claim()
        case .xandikos:
            let server = try XandikosServer()
            return CalDAVHome(
                url: server.url, user: "alice", password: "unused",
                homeURL: URL(string: server.url)!.appendingPathComponent("alice/calendars/"), server: server)
        }
    }

    /// Under `make test` (the harness exports CHIME_TEST_SERVICES) these tests run, and fail
    /// without a server; elsewhere they are skipped, and say so.
    public static let available =
        ProcessInfo.processInfo.environment["CALDAV_URL"] != nil
        || ProcessInfo.processInfo.environment["CHIME_TEST_SERVICES"] == "1"

    /// Claims the next free user of the harness's pool (a marker file created exclusively, so
    /// parallel tests and earlier runs on the same server never share a home).
    public static func claim(serverURL: String? = nil) throws -> CalDAVHome {
        let env = ProcessInfo.processInfo.environment
        let url = try #require(serverURL ?? env["CALDAV_URL"], "no CALDAV_URL: run under Tests/harness/with-services.sh")
        let claimed = try #require(env["CALDAV_USERS"], "no CALDAV_USERS from caldav-up.sh")
        for i in 0..<300 {
            let user = String(format: "u%03d", i)
            let fd = open(claimed + "/" + user, O_CREAT | O_EXCL | O_WRONLY, 0o644)
            if fd >= 0 {
                close(fd)
                return CalDAVHome(url: url, user: user, password: "pw-" + user)
            }
        }
        throw CLIFailure("every test user of the harness's Radicale is taken")
    }

    /// Creates a calendar collection in the home (MKCALENDAR) taking these components.
    public func makeCalendar(_ name: String, title: String, components: [String]) async throws {
        let comps = components.map { "<C:comp name=\"\($0)\"/>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>\(title)</D:displayname>
            <C:supported-calendar-component-set>\(comps)</C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>
            """
        let client = DAVClient(user: user, password: password)
        _ = try await client.send("PROPFIND", homeURL, body: "<propfind xmlns=\"DAV:\"><prop><resourcetype/></prop></propfind>", headers: ["Depth": "0"])
        let r = try await client.send("MKCALENDAR", homeURL.appendingPathComponent(name + "/"), body: body)
        #expect(r.status == 201, "MKCALENDAR \(name): \(r.status) \(r.text)")
    }

    /// The members of a collection as the server holds them: href → iCalendar text.
    public func members(of name: String) async throws -> [String: String] {
        let server = CalDAVServer(client: DAVClient(user: user, password: password))
        let url = homeURL.appendingPathComponent(name + "/")
        let listing = try await server.changes(in: url, since: nil)
        return try await server.fetch(listing.responses.map(\.href), in: url).mapValues(\.text)
    }

    /// `chime account add` for this home into a store.
    public func addAccount(_ name: String, to s: StoreSession) throws -> CLIResult {
        try s.run("account", "add", name, "--url", url, "--user", user, "--password-command", "echo \(password)")
    }

    /// This home seen through the harness's fault proxy (Tests/harness/caldav-fault-proxy.py) with
    /// `fault`: the proxy's process (the caller stops it) and the home at the proxy's address.
    public func behindProxy(_ fault: String) throws -> (process: Process, home: CalDAVHome) {
        let port = try closedLoopbackPort()
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        proxy.arguments = [
            "python3",
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../harness/caldav-fault-proxy.py").standardized.path, "\(port)", url, fault
        ]
        try proxy.run()
        return (proxy, CalDAVHome(url: "http://127.0.0.1:\(port)/", user: user, password: password))
    }

    /// ``addAccount(_:to:)``, asked again while the server (a proxy just started) does not answer yet.
    public func addAccountOnceUp(_ name: String, to s: StoreSession) throws -> CLIResult {
        var added = try addAccount(name, to: s)
        for _ in 0..<100 where added.stderr.contains("no answer") || added.stderr.contains("connect") {
            usleep(50_000)
            added = try addAccount(name, to: s)
        }
        return added
    }
}

/// The two CalDAV servers the sync is tested against.
public enum CalDAVServerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Radicale (Debian), started once by the harness, one user per test.
    case radicale
    /// Xandikos (PyPI), the stricter one: it enforces component sets, answers a bad sync token
    /// with 412, and never sends calendar-data in a sync-collection answer.
    case xandikos

    public var testDescription: String { rawValue }
}

/// A Xandikos server of its own on a free port, in a temporary folder: single user (`/alice/`),
/// no authentication (0.4.10 ties `--htpasswd` to HTTPS), so one per test. Stopped on deinit.
public final class XandikosServer: @unchecked Sendable {
    public let process = Process()
    public let folder: String
    public let url: String

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-xandikos-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let port = try closedLoopbackPort()
        url = "http://127.0.0.1:\(port)/"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-m", "xandikos", "serve", "-d", folder + "/data", "--state-dir", folder + "/state",
            "-l", "127.0.0.1", "-p", "\(port)", "--defaults", "--current-user-principal", "/alice/", "--no-detect-systemd"
        ]
        process.standardOutput = FileHandle.nullDevice
        let log = folder + "/xandikos.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        // Up when it answers HTTP (0.3–0.5 s here); a dead process is a failure with its log.
        for _ in 0..<400 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return }
            guard process.isRunning else {
                throw CLIFailure(
                    "xandikos did not start (python3 -m pip install xandikos==0.4.10): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            usleep(25_000)
        }
        throw CLIFailure("xandikos did not answer on port \(port) within 10 s")
    }

    deinit {
        // SIGKILL: on SIGTERM it waits for clients' keep-alive connections to close.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

public struct CLIFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// A loopback port nothing listens on (for a server or proxy to start on, or to refuse).
public func closedLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw CLIFailure("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
