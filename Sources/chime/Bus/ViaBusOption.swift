import ArgumentParser
import ChimeCore
import ChimeDesktop
import ChimeFormat
import ChimeStore
import Dispatch
import Foundation

/// `--via-bus`: the command asks the running daemon over D-Bus, as another app would, instead of
/// opening the store; it prints the service's JSON (the shape `--json` prints). The first time,
/// the daemon asks you (a notification) whether `chime` may use your events or reminders.
struct ViaBusOption: ParsableArguments {
    @Flag(name: .customLong("via-bus"), help: "Ask the running daemon over D-Bus instead of opening the store (prints JSON).")
    var viaBus = false

    /// Runs `body` with a client that has access to `entity` (asking for it when not decided) and
    /// prints what it returns. Without an entity type (an item of either), the daemon's refusal says which is missing.
    func run(needing entity: EntityType?, _ body: @escaping @Sendable (ChimeBusClient) async throws -> String) throws {
        let outcome = ViaBus.wait {
            let client = try ChimeBusClient.connect()
            guard let entity else { return try await body(client) }
            var status = try await client.authorizationStatus(for: entity)
            if status == .notDetermined {
                let asking =
                    entity == .event
                    ? CLIContext.messages("chime asks the daemon for access to your events: answer the notification")
                    : CLIContext.messages("chime asks the daemon for access to your reminders: answer the notification")
                FileHandle.standardError.write(Data((asking + "\n").utf8))
                status = try await client.requestAccess(to: entity)
            }
            guard status == .authorized else {
                let values: KeyValuePairs<String, String> = [
                    "status": status.rawValue, "command": "chime access grant exe:\(ViaBus.executable) \(entity.plural)"
                ]
                throw entity == .event
                    ? InputError(translatable: "the daemon does not let chime use your events ({status}); {command} allows it", values)
                    : InputError(translatable: "the daemon does not let chime use your reminders ({status}); {command} allows it", values)
            }
            return try await body(client)
        }
        switch outcome {
        case .success(let text): print(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        case .failure(let error as BusError) where error.name.hasSuffix("ServiceUnknown") || error.name.hasSuffix("NameHasNoOwner"):
            throw InputError(translatable: "no chime daemon answers on the session bus (start it: systemctl --user start chime, or chime daemon)")
        case .failure(let error as BusError): throw InputError(translatable: "the daemon refused: {reason}", ["reason": error.message])
        case .failure(let error): throw error
        }
    }
}

enum ViaBus {
    /// This executable's path, as the daemon knows the app.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Waits on this (synchronous) command's thread for async work: the bus client answers on a
    /// GLib thread of its own, so nothing here needs the waiting thread.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return box.result!
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    // @unchecked: written once by the task before the semaphore is signalled, read after the wait.
    var result: Result<T, any Error>?
}
