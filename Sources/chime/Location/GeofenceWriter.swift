import ChimeCore
import ChimeFormat
import ChimeStore

/// The text and JSON of `chime geofence simulate` and `chime geofence list`.
struct GeofenceWriter {
    let zone: ZoneRules
    let now: Instant
    /// The user's language (English by default, as the in-process tests read it).
    var messages: Messages = .english

    // MARK: simulate

    func simulationText(_ result: GeofenceSimulation.Result, track: String, fixes: [LocationFix], into out: inout OutputBuffer) {
        let length = zip(fixes, fixes.dropFirst()).reduce(0.0) { $0 + Geodesy.distance($1.0.coordinate, $1.1.coordinate) }
        out.append(
            messages(
                "Track {track}: {count} positions, {start} → {end} ({zone}), {length}",
                [
                    "track": track, "count": "\(fixes.count)", "start": stamp(fixes.first!.timestamp), "end": clock(fixes.last!.timestamp),
                    "zone": zone.identifier, "length": TrackingPolicy.distanceText(length)
                ]) + "\n")
        out.append(messages("Fences armed along it: {count}", ["count": "\(result.armedFences)"]) + "\n")
        let verbs = (arrived: messages("Arrived", context: "geofence crossing"), left: messages("Left", context: "geofence crossing"))
        let verbWidth = max(DisplayText.columns(verbs.arrived), DisplayText.columns(verbs.left))
        for crossing in result.firings {
            let fence = crossing.fence
            let verb = (fence.proximity == .enter ? verbs.arrived : verbs.left).padding(toLength: verbWidth)
            out.append(
                "\(clock(crossing.fix.timestamp))  \(verb)  \(DisplayText.singleLine(fence.place.title))  \"\(DisplayText.itemTitle(fence.item.title))\""
                    + "  [\(kindText(fence.item.kind)) \(Style.reference(DisplayText.singleLine(ItemReference.short(fence.item.identifier))))]  "
                    + messages(
                        "at {position} ±{accuracy} m, {distance} m from the centre (radius {radius} m)",
                        [
                            "position": "\(crossing.fix.coordinate)", "accuracy": "\(Int(crossing.fix.horizontalAccuracy.rounded()))",
                            "distance": "\(Int(crossing.distance.rounded()))", "radius": "\(Int(fence.radius))"
                        ]) + "\n")
        }
        if !result.ignored.isEmpty {
            var reasons: [String: Int] = [:]
            for (_, reason) in result.ignored { reasons[reasonKind(reason), default: 0] += 1 }
            let list = reasons.sorted { $0.key < $1.key }.map { "\($0.value) (\($0.key))" }.joined(separator: ", ")
            out.append(messages("Positions ignored: {reasons}", ["reasons": list]) + "\n")
        }
        out.append(messages.plural("{count} alarm would fire.", "{count} alarms would fire.", count: result.firings.count) + "\n")
    }

    func simulationJSON(_ result: GeofenceSimulation.Result, track: String, fixes: [LocationFix], into out: inout OutputBuffer) {
        let firings = result.firings.map { crossing -> String in
            let fence = crossing.fence
            return JSONText.object(
                [
                    ("at", JSONText.string(crossing.fix.timestamp.description)),
                    ("at_local", JSONText.string(zone.localTime(at: crossing.fix.timestamp).description))
                ] + fenceFields(fence) + [
                    ("fix", fix(crossing.fix)),
                    ("distance_m", number(crossing.distance))
                ])
        }
        let ignored = result.ignored.map { JSONText.object([("fix", fix($0.fix)), ("reason", JSONText.string($0.reason))]) }
        out.append(
            JSONText.document([
                ("track", JSONText.string(track)), ("positions", "\(fixes.count)"), ("armed_fences", "\(result.armedFences)"),
                ("firings", JSONText.array(firings)), ("ignored", JSONText.array(ignored))
            ]) + "\n")
    }

    // MARK: list

    func listText(
        _ fences: [Geofence], statuses: [FiringKey: FenceStatus], fired: [FiringKey: LedgerEntry], last: StoredFix?,
        into out: inout OutputBuffer
    ) {
        if let last {
            let age = max(0, now.secondsSince1970 - last.fix.timestamp.secondsSince1970)
            out.append(
                messages(
                    "Last position: {position} ±{accuracy} m at {time} ({provider}, {ago})",
                    [
                        "position": "\(last.fix.coordinate)", "accuracy": "\(Int(last.fix.horizontalAccuracy.rounded()))",
                        "time": stamp(last.fix.timestamp), "provider": last.provider, "ago": DisplayText.ago(age, messages: messages)
                    ]) + "\n")
        } else {
            out.append(messages("Last position: none yet (the daemon saves the positions it uses)") + "\n")
        }
        out.append(messages("Armed fences: {count}", ["count": "\(fences.count)"]) + "\n")
        let states: [FenceState: String] = [
            .unknown: messages("unknown", context: "geofence state"), .inside: messages("inside", context: "geofence state"),
            .outside: messages("outside", context: "geofence state")
        ]
        let stateWidth = states.values.map(DisplayText.columns).max() ?? 0
        let proximities = (arrive: messages("arrive", context: "geofence proximity"), leave: messages("leave", context: "geofence proximity"))
        let proximityWidth = max(DisplayText.columns(proximities.arrive), DisplayText.columns(proximities.leave))
        for fence in fences {
            let state = statuses[fence.key]?.state ?? .unknown
            let proximity = (fence.proximity == .enter ? proximities.arrive : proximities.leave).padding(toLength: proximityWidth)
            var line = "  \((states[state] ?? state.rawValue).padding(toLength: stateWidth))  \(proximity)  \(DisplayText.singleLine(fence.place.title))"
            line += "  r \(Int(fence.radius)) m"
            if let last {
                line += messages(", {distance} away", ["distance": TrackingPolicy.distanceText(Geodesy.distance(fence.center, last.fix.coordinate))])
            }
            line +=
                "  \"\(DisplayText.itemTitle(fence.item.title))\"  [\(kindText(fence.item.kind)) \(Style.reference(DisplayText.singleLine(ItemReference.short(fence.item.identifier))))]"
            if fence.item.kind == .event, let start = fence.occurrenceStart { line += "  " + messages("occurrence {time}", ["time": stamp(start)]) }
            if let entry = fired[fence.key] { line += "  (\(AlarmsWriter.stateText(entry.state.rawValue, messages: messages)) \(stamp(entry.fireAt)))" }
            out.append(line + "\n")
        }
    }

    func listJSON(
        _ fences: [Geofence], statuses: [FiringKey: FenceStatus], fired: [FiringKey: LedgerEntry], last: StoredFix?,
        into out: inout OutputBuffer
    ) {
        let items = fences.map { fence -> String in
            var fields = [("state", JSONText.string((statuses[fence.key]?.state ?? .unknown).rawValue))] + fenceFields(fence)
            fields.append(("distance_m", last.map { number(Geodesy.distance(fence.center, $0.fix.coordinate)) } ?? "null"))
            fields.append(
                (
                    "fired",
                    fired[fence.key].map {
                        JSONText.object([
                            ("state", JSONText.string($0.state.rawValue)),
                            ("at", JSONText.string($0.fireAt.description))
                        ])
                    } ?? "null"
                ))
            return JSONText.object(fields)
        }
        let lastJSON = last.map { JSONText.object([("fix", fix($0.fix)), ("provider", JSONText.string($0.provider))]) } ?? "null"
        out.append(JSONText.document([("last_position", lastJSON), ("fences", JSONText.array(items))]) + "\n")
    }

    // MARK: Pieces

    /// What both commands say about a fence: proximity, place, item, key.
    private func fenceFields(_ fence: Geofence) -> [(String, String)] {
        [
            ("proximity", JSONText.string(fence.proximity.rawValue)),
            ("place", place(fence)),
            ("title", JSONText.string(fence.item.title)),
            ("id", JSONText.string(fence.item.identifier)),
            ("kind", JSONText.string(fence.item.kind.rawValue)),
            ("key", JSONText.string(fence.key.description))
        ]
    }

    private func place(_ fence: Geofence) -> String {
        JSONText.object([
            ("title", JSONText.string(fence.place.title)), ("latitude", "\(fence.place.latitude)"),
            ("longitude", "\(fence.place.longitude)"), ("radius_m", number(fence.radius))
        ])
    }

    func fix(_ f: LocationFix) -> String {
        JSONText.object([
            ("time", JSONText.string(f.timestamp.description)), ("latitude", "\(f.latitude)"),
            ("longitude", "\(f.longitude)"), ("accuracy_m", number(f.horizontalAccuracy))
        ])
    }

    private func number(_ d: Double) -> String { "\((d * 10).rounded() / 10)" }

    /// `Termin`, `Erinnerung`: the words `chime find` names the kinds with.
    private func kindText(_ kind: ItemSummary.Kind) -> String {
        kind == .event ? messages("event", context: "find kind") : messages("reminder", context: "find kind")
    }

    private func reasonKind(_ reason: String) -> String {
        if reason.hasPrefix("accuracy") { return messages("accuracy worse than the limit") }
        return reason
    }

    func stamp(_ i: Instant) -> String {
        let local = zone.localTime(at: i)
        return "\(messages.dayHeading(local.date)) \(clock(i))"
    }

    func clock(_ i: Instant) -> String {
        let l = zone.localTime(at: i)
        return DisplayText.hhmm(l) + (l.second < 10 ? ":0" : ":") + "\(l.second)"
    }
}
