import ChimeCore
import ChimeFormat
import ChimeStore

/// The text and JSON of `chime geofence simulate` and `chime geofence list`.
struct GeofenceWriter {
    let zone: ZoneRules
    let now: Instant

    // MARK: simulate

    func simulationText(_ result: GeofenceSimulation.Result, track: String, fixes: [LocationFix], into out: inout OutputBuffer) {
        let length = zip(fixes, fixes.dropFirst()).reduce(0.0) { $0 + Geodesy.distance($1.0.coordinate, $1.1.coordinate) }
        out.append(
            "Track \(track): \(fixes.count) positions, \(stamp(fixes.first!.timestamp)) → \(clock(fixes.last!.timestamp))"
                + " (\(zone.identifier)), \(TrackingPolicy.distanceText(length))\n")
        out.append("Fences armed along it: \(result.armedFences)\n")
        for crossing in result.firings {
            let fence = crossing.fence
            let verb = fence.proximity == .enter ? "Arrived" : "Left   "
            out.append(
                "\(clock(crossing.fix.timestamp))  \(verb)  \(DisplayText.singleLine(fence.place.title))  \"\(DisplayText.itemTitle(fence.item.title))\""
                    + "  [\(fence.item.kind.rawValue) \(Style.reference(DisplayText.singleLine(ItemReference.short(fence.item.identifier))))]"
                    + "  at \(crossing.fix.coordinate) ±\(Int(crossing.fix.horizontalAccuracy.rounded())) m,"
                    + " \(Int(crossing.distance.rounded())) m from the centre (radius \(Int(fence.radius)) m)\n")
        }
        if !result.ignored.isEmpty {
            var reasons: [String: Int] = [:]
            for (_, reason) in result.ignored { reasons[reasonKind(reason), default: 0] += 1 }
            out.append("Positions ignored: " + reasons.sorted { $0.key < $1.key }.map { "\($0.value) (\($0.key))" }.joined(separator: ", ") + "\n")
        }
        out.append(result.firings.count == 1 ? "1 alarm would fire.\n" : "\(result.firings.count) alarms would fire.\n")
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
                "Last position: \(last.fix.coordinate) ±\(Int(last.fix.horizontalAccuracy.rounded())) m"
                    + " at \(stamp(last.fix.timestamp)) (\(last.provider), \(ago(age)))\n")
        } else {
            out.append("Last position: none yet (the daemon saves the positions it uses)\n")
        }
        out.append("Armed fences: \(fences.count)\n")
        for fence in fences {
            let state = statuses[fence.key]?.state ?? .unknown
            var line =
                "  \(state.rawValue.padding(toLength: 7))  \(fence.proximity == .enter ? "arrive" : "leave ")  \(DisplayText.singleLine(fence.place.title))"
            line += "  r \(Int(fence.radius)) m"
            if let last { line += ", \(TrackingPolicy.distanceText(Geodesy.distance(fence.center, last.fix.coordinate))) away" }
            line +=
                "  \"\(DisplayText.itemTitle(fence.item.title))\"  [\(fence.item.kind.rawValue) \(Style.reference(DisplayText.singleLine(ItemReference.short(fence.item.identifier))))]"
            if fence.item.kind == .event, let start = fence.occurrenceStart { line += "  occurrence \(stamp(start))" }
            if let entry = fired[fence.key] { line += "  (\(entry.state.rawValue) \(stamp(entry.fireAt)))" }
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

    private func reasonKind(_ reason: String) -> String {
        if reason.hasPrefix("accuracy") { return "accuracy worse than the limit" }
        return reason
    }

    private func ago(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds) s ago" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 86_400 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86_400) days ago"
    }

    func stamp(_ i: Instant) -> String {
        let local = zone.localTime(at: i)
        return "\(DisplayText.dayHeading(local.date)) \(clock(i))"
    }

    func clock(_ i: Instant) -> String {
        let l = zone.localTime(at: i)
        return DisplayText.hhmm(l) + (l.second < 10 ? ":0" : ":") + "\(l.second)"
    }
}
