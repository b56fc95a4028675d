@testable import ChimeCalDAV
import Foundation
import Testing

/// The HTTP client against a real server on loopback (Tests/harness/hostile-http-server.py) that
/// answers as a hostile one would: the password never reaches another origin, only http and https
/// are followed, a header value with a line break is never sent, and a body larger than any
/// calendar is not read to the end.
@Suite struct HostileServerTests {
    /// The two listeners' ports and the log of what they received; stops them at the end.
    final class Servers {
        let process = Process()
        let input = Pipe()
        let log: String
        let first: Int, second: Int

        init() throws {
            log = FileManager.default.temporaryDirectory.appendingPathComponent("chime-hostile-http-\(UUID().uuidString).log").path
            FileManager.default.createFile(atPath: log, contents: nil)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("harness/hostile-http-server.py").path
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, log]
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = input
            try process.run()
            // One line once both listen: the state to wait for.
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
            let ports = try JSONSerialization.jsonObject(with: line) as? [String: Int] ?? [:]
            first = try #require(ports["first"])
            second = try #require(ports["second"])
        }

        func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(first)\(path)")! }

        /// What each request carried: listener, path, Authorization.
        var requests: [(listener: String, path: String, authorization: String?)] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return (o["listener"] as? String ?? "", o["path"] as? String ?? "", o["authorization"] as? String)
            }
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: log)
        }
    }

    @Test func credentialsGoToTheSameOriginOnlyNeverToAnotherPort() async throws {
        let servers = try Servers()
        let client = DAVClient(user: "ann", password: "s3cret")
        let same = try await client.send("PROPFIND", servers.url("/to-same-origin"))
        #expect(same.status == 200)
        let other = try await client.send("PROPFIND", servers.url("/to-other-port"))
        #expect(other.status == 200)
        let requests = servers.requests
        #expect(requests.filter { $0.listener == "first" }.allSatisfy { $0.authorization?.hasPrefix("Basic ") == true }, "\(requests)")
        let leaked = requests.filter { $0.listener == "second" }
        #expect(leaked.count == 1 && leaked.allSatisfy { $0.authorization == nil }, "the password went to another port: \(leaked)")
    }

    /// The other origin asks for a password it was never given: the error says so, and does not
    /// send the user to check a password that is right.
    @Test func aPasswordAskedForAfterARedirectElsewhereIsNotCalledRefused() async throws {
        let servers = try Servers()
        do {
            _ = try await DAVClient(user: "ann", password: "s3cret").send("PROPFIND", servers.url("/to-other-port-asking"))
            Issue.record("a 401 from another origin was taken as an answer")
        } catch {
            let text = "\(error)"
            #expect(text.contains("asks for a password") && text.contains("only to http://127.0.0.1:"), "\(text)")
            #expect(!text.contains("refused the password"), "\(text)")
        }
        #expect(servers.requests.filter { $0.listener == "second" }.allSatisfy { $0.authorization == nil })
    }

    @Test(arguments: ["/to-file", "/to-gopher"])
    func redirectsToOtherSchemesAreRefused(path: String) async throws {
        let servers = try Servers()
        let client = DAVClient(user: "ann", password: "s3cret")
        do {
            let answer = try await client.send("PROPFIND", servers.url(path))
            Issue.record("followed to another scheme: HTTP \(answer.status), \(answer.text.prefix(80))")
        } catch {
            #expect("\(error)".contains("only http and https redirects are followed"), "\(error)")
            #expect(!"\(error)".contains("root:"), "a file's content reached the message: \(error)")
        }
        #expect(!servers.requests.contains { $0.listener == "second" }, "the gopher redirect reached the second port")
    }

    @Test func aHeaderValueWithALineBreakIsNotSent() async throws {
        let servers = try Servers()
        let client = DAVClient(user: "ann", password: "s3cret")
        await #expect(throws: CalDAVError.self) {
            _ = try await client.send("DELETE", servers.url("/landing"), headers: ["If-Match": "\"e1\"\r\nX-Injected: yes"])
        }
        #expect(servers.requests.isEmpty)
        await #expect(throws: CalDAVError.self) { _ = try await client.send("GET", URL(string: "file:///etc/passwd")!) }
    }

    @Test func originsAndHeaderValues() {
        #expect(HTTPOrigin(URL(string: "https://Dav.Example.org/cal/")!) == HTTPOrigin(URL(string: "https://dav.example.org:443/x")!))
        #expect(HTTPOrigin(URL(string: "http://dav.example.org/")!) != HTTPOrigin(URL(string: "https://dav.example.org/")!))
        #expect(HTTPOrigin(URL(string: "http://dav.example.org:8080/")!) != HTTPOrigin(URL(string: "http://dav.example.org/")!))
        #expect(HTTPOrigin(URL(string: "file:///etc/passwd")!) == nil)
        #expect(HTTPOrigin(URL(string: "gopher://127.0.0.1:70/_x")!) == nil)
        #expect(HTTPOrigin.isSafeHeaderValue("W/\"abc-123\""))
        #expect(!HTTPOrigin.isSafeHeaderValue("\"a\"\r\nX: y"))
        #expect(!HTTPOrigin.isSafeHeaderValue("\"a\"\u{0}"))
    }

    /// A 300 MB answer once grew the daemon to 1.9 GB: reading stops at the cap, and the error says so.
    @Test func aBodyLargerThanTheCapIsRefusedNotHeld() async throws {
        let servers = try Servers()
        let client = DAVClient(timeout: 30)
        do {
            let answer = try await client.send("GET", servers.url("/huge"))
            Issue.record("read \(answer.body.count) bytes")
        } catch {
            #expect("\(error)".contains("larger than \(DAVClient.maximumBodyBytes / 1_048_576) MiB"), "\(error)")
            #expect(!error.isTransient, "retrying will not make it smaller")
        }
    }

    /// A multistatus is parsed as it arrives: the answer's body is never held (the response
    /// carries none), and every response in it is read.
    @Test func aLargeMultistatusIsParsedAsItArrivesNotHeld() async throws {
        let servers = try Servers()
        let client = DAVClient(timeout: 60)
        let parsed = MultiStatus.parsedAsItArrives()
        let response = try await client.send("REPORT", servers.url("/multistatus-large"), streaming: parsed)
        #expect(response.status == 207)
        #expect(response.body.isEmpty, "the streamed body was also held: \(response.body.count) bytes")
        let answer = try #require(try parsed.result?.get())
        #expect(answer.responses.count == 12_000)
        #expect(answer.responses.last?.href == "/cal/item-11999.ics")
        let data = try #require(answer.responses.first?.properties["{\(MultiStatus.caldav)}calendar-data"])
        #expect(data.hasPrefix("BEGIN:VCALENDAR") && data.contains("UID:item-0\n"))
    }

    /// A streamed answer that is not XML stops the transfer at once: the parser's reason is what
    /// is said, long before the 80 MiB the server would send reach the cap.
    @Test func aStreamedAnswerThatIsNotXMLStopsTheTransferWithTheParsersReason() async throws {
        let servers = try Servers()
        let client = DAVClient(timeout: 60)
        let parsed = MultiStatus.parsedAsItArrives()
        let response = try await client.send("REPORT", servers.url("/multistatus-garbage"), streaming: parsed)
        #expect(response.status == 207)
        guard case .failure(let error)? = parsed.result else { Issue.record("not refused: \(String(describing: parsed.result))"); return }
        #expect(!error.reason.isEmpty)
    }

    /// An error page (not the streamed status) is held as before, so its first line can be shown.
    @Test func anAnswerWithAnotherStatusIsHeldNotStreamed() async throws {
        let servers = try Servers()
        let client = DAVClient(timeout: 30)
        let parsed = MultiStatus.parsedAsItArrives()
        let response = try await client.send("PROPFIND", servers.url("/landing"), streaming: parsed)
        #expect(response.status == 200 && response.text == "ok")
        #expect(parsed.result == nil)
    }
}
