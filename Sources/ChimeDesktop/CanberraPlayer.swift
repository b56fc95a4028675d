import ChimeScheduler
import Foundation
import Glibc
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
/// Requests run one after the other on a thread of the player's own, started with the first: opening
/// the audio backend can take a moment and a machine without a sound card must not hold up a
/// notification, so ``play(_:)`` only queues the request. (Not a libdispatch queue: its first worker
/// thread starts a one-second timer that would wake the idle daemon for the rest of its life.)
/// libcanberra itself is loaded on first use (``Canberra``), not linked, so that a `chime` process
/// that plays no sound does not load it and its decoders. The context is opened on first use and
/// kept; a failure is reported and the next sound tries again.
public final class CanberraPlayer: SoundPlayer {
    private let report: @Sendable (String, Result<Void, SoundError>) -> Void
    /// The open context; used under the lock.
    private let context = Mutex<ContextBox?>(nil)
    private let pending = NSCondition()
    /// Sounds waiting for the player's thread, and whether that thread runs; guarded by `pending`.
    nonisolated(unsafe) private var queued: [String] = []
    nonisolated(unsafe) private var threadStarted = false

    /// - Parameter report: called on the player's thread with each sound's outcome: the start of its
    ///   playback (libcanberra plays it in the background), or why it could not start.
    public init(report: @escaping @Sendable (String, Result<Void, SoundError>) -> Void = { _, _ in }) {
        self.report = report
    }

    public func play(_ name: String) {
        pending.lock()
        queued.append(name)
        let start = !threadStarted
        threadStarted = true
        pending.signal()
        pending.unlock()
        guard start else { return }
        let thread = Thread { [self] in playQueued() }
        thread.name = "chime-canberra"
        thread.start()
    }

    /// The player's thread: plays queued sounds in order, then waits (without a timeout) for more.
    private func playQueued() {
        while true {
            pending.lock()
            while queued.isEmpty { pending.wait() }
            let name = queued.removeFirst()
            pending.unlock()
            report(name, playNow(name))
        }
    }

    /// Plays `name` from the calling thread and says whether playback started. For tests and
    /// `chime doctor`; the daemon uses ``play(_:)``.
    public func playNow(_ name: String) -> Result<Void, SoundError> {
        guard AlarmSounds.isValidName(name) else { return .failure(SoundError("\"\(name)\" is not a sound-theme name")) }
        let library: Canberra
        switch Canberra.loaded {
        case .success(let loaded): library = loaded
        case .failure(let error): return .failure(error)
        }
        return context.withLock { box -> Result<Void, SoundError> in
            if box == nil {
                switch ContextBox.open(library) {
                case .success(let opened): box = opened
                case .failure(let error): return .failure(error)
                }
            }
            let properties = Properties(library)
            guard let list = properties.list else { return .failure(SoundError("out of memory")) }
            _ = library.proplistSets(list, "event.id", name)
            _ = library.proplistSets(list, "event.description", "Chime alarm")
            let status = library.contextPlayFull(box!.pointer, 0, list, nil, nil)
            guard status == 0 else {
                // A backend that went away (PulseAudio restarted): open a fresh context next time.
                box = nil
                return .failure(SoundError(library.message(status)))
            }
            return .success(())
        }
    }
}

/// A `ca_context`, destroyed with its box. @unchecked: used only under the player's mutex.
private final class ContextBox: @unchecked Sendable {
    let pointer: OpaquePointer
    private let library: Canberra

    private init(_ pointer: OpaquePointer, _ library: Canberra) { self.pointer = pointer; self.library = library }

    static func open(_ library: Canberra) -> Result<ContextBox, SoundError> {
        var raw: OpaquePointer?
        let created = library.contextCreate(&raw)
        guard created == 0, let raw else { return .failure(SoundError(library.message(created))) }
        let box = ContextBox(raw, library)
        let properties = Properties(library)
        if let list = properties.list {
            _ = library.proplistSets(list, "application.name", "Chime")
            _ = library.proplistSets(list, "application.id", "io.github.chime.Chime")
            _ = library.proplistSets(list, "application.icon_name", "chime")
            _ = library.contextChangePropsFull(raw, list)
        }
        let opened = library.contextOpen(raw)
        guard opened == 0 else { return .failure(SoundError(library.message(opened))) }
        return .success(box)
    }

    deinit { _ = library.contextDestroy(pointer) }
}

/// A `ca_proplist`, destroyed with the value.
private final class Properties {
    let list: OpaquePointer?
    private let library: Canberra
    init(_ library: Canberra) {
        self.library = library
        var raw: OpaquePointer?
        list = library.proplistCreate(&raw) == 0 ? raw : nil
    }
    deinit { if let list { _ = library.proplistDestroy(list) } }
}
