import Glibc

/// The few libcanberra calls the sound player makes, looked up in `libcanberra.so.0` the first time
/// a sound is played instead of linked: linking it made every `chime` process load libcanberra and
/// its Vorbis decoder (libvorbisfile, libvorbis, libogg, libtdb, libltdl) at start, 1–6 ms and
/// 1.5 MB resident, for sounds that most commands never play. Signatures from `canberra.h`
/// (libcanberra 0.30, ABI version 0); `ca_context` and `ca_proplist` are opaque.
struct Canberra: @unchecked Sendable {
    // @unchecked: C function pointers into a library that stays loaded; libcanberra's calls are thread-safe
    // per context, and the player uses its context under a lock.
    typealias Create = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias Destroy = @convention(c) (OpaquePointer?) -> Int32
    typealias ChangeProps = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias Play = @convention(c) (OpaquePointer?, UInt32, OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    typealias SetString = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    typealias Describe = @convention(c) (Int32) -> UnsafePointer<CChar>?

    let contextCreate: Create
    let contextDestroy: Destroy
    let contextOpen: Destroy
    let contextChangePropsFull: ChangeProps
    let contextPlayFull: Play
    let proplistCreate: Create
    let proplistDestroy: Destroy
    let proplistSets: SetString
    let strerror: Describe

    /// The library's soname: what Debian's runtime package `libcanberra0` installs.
    static let soname = "libcanberra.so.0"

    /// libcanberra, loaded once on first use; a failure (not installed) is kept and reported with
    /// each sound, so the daemon logs why it plays none and shows the notification regardless.
    static let loaded: Result<Canberra, SoundError> = load()

    static func load(_ soname: String = soname) -> Result<Canberra, SoundError> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(SoundError("\(soname) cannot be loaded (\(reason)); install libcanberra0 for alarm sounds"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let contextCreate = symbol("ca_context_create", as: Create.self),
            let contextDestroy = symbol("ca_context_destroy", as: Destroy.self),
            let contextOpen = symbol("ca_context_open", as: Destroy.self),
            let contextChangePropsFull = symbol("ca_context_change_props_full", as: ChangeProps.self),
            let contextPlayFull = symbol("ca_context_play_full", as: Play.self),
            let proplistCreate = symbol("ca_proplist_create", as: Create.self),
            let proplistDestroy = symbol("ca_proplist_destroy", as: Destroy.self),
            let proplistSets = symbol("ca_proplist_sets", as: SetString.self),
            let strerror = symbol("ca_strerror", as: Describe.self)
        else {
            dlclose(handle)
            return .failure(SoundError("\(soname) lacks the calls Chime uses (not libcanberra 0.30?)"))
        }
        return .success(
            Canberra(
                contextCreate: contextCreate, contextDestroy: contextDestroy, contextOpen: contextOpen,
                contextChangePropsFull: contextChangePropsFull, contextPlayFull: contextPlayFull,
                proplistCreate: proplistCreate, proplistDestroy: proplistDestroy,
                proplistSets: proplistSets, strerror: strerror))
    }

    /// libcanberra's words for a status code ("Not available", "Not found").
    func message(_ status: Int32) -> String {
        strerror(status).map { String(cString: $0) } ?? "libcanberra error \(status)"
    }
}
