import CCanberra
import ChimeScheduler
import Dispatch
import Synchronization

/// Plays alarm sounds where the notification server plays none (no `sound` capability).
///
/// ```swift
/// let player = CanberraPlayer(report: { name, result in print(name, result) })
/// player.play("alarm-clock-elapsed")   // returns at once; the result arrives through `report`
/// ```
public protocol SoundPlayer: AnyObject, Sendable {
    /// Starts playing the sound-theme sound `name` and returns at once.
    func play(_ name: String)
}

/// Why a sound could not be played: libcanberra's own words ("Not available", "Not found").
public struct SoundError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Plays freedesktop sound-theme sounds through libcanberra (PulseAudio, PipeWire's Pulse server
/// or ALSA, whichever libcanberra finds).
///
/// Everything runs on a serial queue of its own: opening the audio backend can take a moment and
/// a machine without a sound card must not hold up a notification, so ``play(_:)`` only queues
/// the request. The context is opened on first use and kept; a failure is reported and the next
/// sound tries again.
public final class CanberraPlayer: SoundPlayer {
    private let queue = DispatchQueue(label: "chime-canberra")
    private let report: @Sendable (String, Result<Void, SoundError>) -> Void
    /// The open context; touched only on `queue`.
    private let context = Mutex<ContextBox?>(nil)

    /// - Parameter report: called on the player's queue with each sound's outcome: the start of its
    ///   playback (libcanberra plays it in the background), or why it could not start.
    public init(report: @escaping @Sendable (String, Result<Void, SoundError>) -> Void = { _, _ in }) {
        self.report = report
    }

    public func play(_ name: String) {
        queue.async { [self] in report(name, playNow(name)) }
    }

    /// Plays `name` from the calling thread and says whether playback started. For tests and
    /// `chime doctor`; the daemon uses ``play(_:)``.
    public func playNow(_ name: String) -> Result<Void, SoundError> {
        guard AlarmSounds.isValidName(name) else { return .failure(SoundError("\"\(name)\" is not a sound-theme name")) }
        return context.withLock { box -> Result<Void, SoundError> in
            if box == nil {
                switch ContextBox.open() {
                case .success(let opened): box = opened
                case .failure(let error): return .failure(error)
                }
            }
            let properties = Properties()
            guard let list = properties.list else { return .failure(SoundError("out of memory")) }
            ca_proplist_sets(list, "event.id", name)
            ca_proplist_sets(list, "event.description", "Chime alarm")
            let status = ca_context_play_full(box!.pointer, 0, list, nil, nil)
            guard status == 0 else {
                // A backend that went away (PulseAudio restarted): open a fresh context next time.
                box = nil
                return .failure(SoundError(Self.message(status)))
            }
            return .success(())
        }
    }

    static func message(_ status: Int32) -> String {
        ca_strerror(status).map { String(cString: $0) } ?? "libcanberra error \(status)"
    }
}

/// A `ca_context`, destroyed with its box. @unchecked: used only under the player's mutex.
private final class ContextBox: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(_ pointer: OpaquePointer) { self.pointer = pointer }

    static func open() -> Result<ContextBox, SoundError> {
        var raw: OpaquePointer?
        let created = ca_context_create(&raw)
        guard created == 0, let raw else { return .failure(SoundError(CanberraPlayer.message(created))) }
        let box = ContextBox(raw)
        let properties = Properties()
        if let list = properties.list {
            ca_proplist_sets(list, "application.name", "Chime")
            ca_proplist_sets(list, "application.id", "io.github.chime.Chime")
            ca_proplist_sets(list, "application.icon_name", "chime")
            _ = ca_context_change_props_full(raw, list)
        }
        let opened = ca_context_open(raw)
        guard opened == 0 else { return .failure(SoundError(CanberraPlayer.message(opened))) }
        return .success(box)
    }

    deinit { ca_context_destroy(pointer) }
}

/// A `ca_proplist`, destroyed with the value.
private final class Properties {
    let list: OpaquePointer?
    init() {
        var raw: OpaquePointer?
        list = ca_proplist_create(&raw) == 0 ? raw : nil
    }
    deinit { if let list { ca_proplist_destroy(list) } }
}
