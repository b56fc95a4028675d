import ChimeCore
import ChimeICS
import ChimeStore

/// How the copies pulled from a server become local items: the sync's reading policy, applied
/// before the store writes a pass (``EventStore``'s `sync.apply`).
///
/// - One UID, one resource (RFC 4791 §5.3.2.1): a server that let a second name hold a UID another
///   name here shows (a client that re-uploaded under a new name, a server without the check) has
///   that copy left on the server, said, and never shown or sent twice. The name already recorded
///   shows the item, else the first name in order.
/// - One UID per resource (RFC 4791 §4.1): anything else in a resource stays on the server only.
/// - A copy of a kind the collection has no calendar for, or one that cannot be read, stays on the
///   server only, and is said.
/// - A server that cut an alarm it could not keep (Radicale cuts unknown values at their first
///   comma: Apple's `geo:LAT,LON` loses its longitude) does not take the local location alarm with it.
///
/// ```swift
/// try ServerCopies.read(&pass, collection: collection, store: store)
/// let applied = try store.sync.apply(pass, collection: collection)
/// ```
public enum ServerCopies {
    /// Reads every pulled copy of `pass` into one batch (``SyncApplication/incoming``), setting each
    /// copy's UID and whether it stays on the server only, and which resource shows each UID.
    public static func read(_ pass: inout SyncApplication, collection: SyncCollection, store: EventStore) throws {
        // Nothing pulled and nothing removed: no copy to read and no UID whose items could go.
        if pass.pulled.isEmpty && pass.removedOnServer.isEmpty { return }
        let resources = try store.sync.resources(collection: collection.id)
        let removedHrefs = Set(pass.removedOnServer)
        var shownBy: [String: String] = [:]
        for r in resources.values where !r.isForeign && !r.uid.isEmpty && !removedHrefs.contains(r.href) { shownBy[r.uid] = r.href }
        var batch = ICSParseResult(items: [], overrides: [], skipped: [])
        var pulled = pass.pulled.sorted { $0.href < $1.href }
        // Every copy of a calendar carries the same VTIMEZONEs: each is read and resolved once.
        let zones = ZoneDefinitions()
        for index in pulled.indices {
            let pull = pulled[index]
            let name = pull.href.split(separator: "/").last.map(String.init) ?? pull.href
            pulled[index].isForeign = true
            var parsed: ICSParseResult
            do {
                parsed = try ICalendar.parse(Array(pull.text.utf8), file: name, zones: zones)
            } catch {
                pass.notes.append("\(error): left on the server, not shown here")
                pulled[index].uid = resources[pull.href]?.uid ?? ""
                continue
            }
            pass.notes += (parsed.repairs + parsed.skipped).map(\.description)
            guard let uid = parsed.items.first?.uid ?? parsed.overrides.first?.uid else { continue }
            pulled[index].uid = uid
            if let other = shownBy[uid], other != pull.href {
                pass.notes.append("\(name) holds \(uid), which \(other) holds too: shown from \(other) only; \(name) is left on the server as it is")
                continue
            }
            let extra = parsed.items.filter { $0.uid != uid }
            if !extra.isEmpty {
                pass.notes.append("\(name): \(extra.count) more UID(s) in one resource: only \(uid) is shown here")
                parsed.items.removeAll { $0.uid != uid }
                parsed.overrides.removeAll { $0.uid != uid }
            }
            let kindMissing = parsed.items.contains { item in
                switch item.item {
                case .event: return collection.eventCalendar == nil
                case .reminder: return collection.reminderList == nil
                }
            }
            if kindMissing || parsed.items.isEmpty { continue }
            shownBy[uid] = pull.href
            try keepLocationAlarms(&parsed, uid: uid, name: name, collection: collection, store: store, notes: &pass.notes)
            batch.items += parsed.items
            batch.overrides += parsed.overrides
            pulled[index].isForeign = false
        }
        pass.pulled = pulled
        pass.incoming = batch
        pass.shownBy = shownBy
    }

    /// The local location alarms a server copy lost (it counted alarms it could not read) are laid
    /// back over it.
    private static func keepLocationAlarms(
        _ parsed: inout ICSParseResult, uid: String, name: String, collection: SyncCollection, store: EventStore,
        notes: inout [String]
    ) throws {
        for index in parsed.items.indices where parsed.items[index].unreadAlarms > 0 {
            let incoming = parsed.items[index].item
            guard let local = try store.sync.localResource(uid: uid, in: collection)?.items.first(where: { $0.kindName == incoming.kindName })
            else { continue }
            let kept = local.alarms.filter { alarm in
                alarm.structuredLocation != nil && !incoming.alarms.contains { $0.trigger == alarm.trigger }
            }
            guard !kept.isEmpty else { continue }
            parsed.items[index].item.alarms += kept
            notes.append(
                "\(name): the server's copy has \(parsed.items[index].unreadAlarms) alarm(s) it could not keep whole; "
                    + "the local location alarm(s) kept (\(kept.count))")
        }
    }
}
