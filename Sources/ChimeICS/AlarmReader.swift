import ChimeCore

/// VALARM → `Alarm`: relative triggers (RELATED=START|END), absolute ones (VALUE=DATE-TIME),
/// and location alarms written the Apple way (`X-APPLE-STRUCTURED-LOCATION` +
/// `X-APPLE-PROXIMITY`) or the RFC 9074 way (`PROXIMITY` + a VLOCATION with a geo: URL).
enum AlarmReader {
    /// The trigger Apple puts on location alarms; it must never become a timed alarm in 1976.
    static let applePlaceholderTrigger: StaticString = "19760401T005545Z"
    static let modelled = PropertyNameSet(["TRIGGER", "X-APPLE-STRUCTURED-LOCATION", "X-APPLE-PROXIMITY", "PROXIMITY"])

    /// Apple's placeholder: its 1976 trigger without a place (its "no alarm", `ACTION:NONE`, is
    /// kept as any action but a shown one is). Kept verbatim with the item, never an alarm. The
    /// trigger is looked at first: nearly every VALARM has another, and then the three location
    /// lines need not be looked for.
    static func hasPlaceholderTrigger(_ a: ICSComponent) -> Bool {
        guard a["TRIGGER"]?.value.isKeyword(applePlaceholderTrigger) == true else { return false }
        return a["X-APPLE-STRUCTURED-LOCATION"] == nil && a["PROXIMITY"] == nil && a["X-APPLE-PROXIMITY"] == nil
    }

    /// The actions that become alarms: a popup (`DISPLAY`, or no ACTION at all), with a sound (`AUDIO`).
    static let shownActions: Set<String> = ["DISPLAY", "AUDIO"]

    /// What an item's reader asks of one VALARM, worked out from one look at its ACTION (asked
    /// separately, the questions looked ACTION up six times per VALARM: 6 % of an import's
    /// reading thread).
    ///
    /// - `ACTION:EMAIL` mails the attendees. Chime sends no mail, and a desktop popup would be a
    ///   different alarm than the one written: kept verbatim with the item, never shown (`chime
    ///   show` lists it as "email alarm (not sent by Chime)").
    /// - Any other ACTION but a shown one, EMAIL and NONE is unknown: RFC 2445's `PROCEDURE` (a
    ///   command to run) or one Chime does not know. A popup would be a different alarm than the
    ///   one written, and a command from a file is never run: kept verbatim, never shown, and the
    ///   reader says so once (``unshownWarning``).
    /// - Apple's placeholders (``hasPlaceholderTrigger(_:)``, `ACTION:NONE`): kept verbatim.
    ///
    /// ```swift
    /// let verdict = AlarmReader.Verdict(valarm)
    /// if verdict.isKeptVerbatim { extras += valarm.contentLines }
    /// ```
    struct Verdict {
        /// Kept as written with the item's extras instead of becoming an alarm: any action but a
        /// shown one (NONE, EMAIL or unknown), or Apple's placeholder trigger.
        let isKeptVerbatim: Bool
        /// Neither EMAIL nor an unknown action: a VALARM meant to become an alarm, Apple's
        /// placeholders included (one that did not become an alarm is counted as unread: a sync
        /// keeps the local alarms of an item whose server copy has such).
        let isMeantAsAlarm: Bool
        /// For an unknown action: its ACTION line and why it is not an alarm.
        let unshownWarning: (line: Int, message: String)?

        init(_ a: ICSComponent) {
            let action = a["ACTION"]
            let keyword = action?.value.trimmingSpaces.asciiUppercased
            let isShown = keyword.map { AlarmReader.shownActions.contains($0) }
            let isUnknown = keyword.map { isShown == false && $0 != "EMAIL" && $0 != "NONE" } ?? false
            // A shown action (or none) is not NONE: only the trigger can make it a placeholder.
            isKeptVerbatim = isShown == false || AlarmReader.hasPlaceholderTrigger(a)
            isMeantAsAlarm = action?.value.isKeyword("EMAIL") != true && !isUnknown
            unshownWarning = isUnknown ? action.map(Self.warning(action:)) : nil
        }

        private static func warning(action: ICSProperty) -> (line: Int, message: String) {
            let value = action.value.trimmingSpaces
            let message =
                value.asciiUppercased == "PROCEDURE"
                ? "\(value) is a command alarm: command alarms from files are never run or shown (kept with the item as written)"
                : "\(value) is not an alarm action Chime knows (DISPLAY, AUDIO, EMAIL): never shown (kept with the item as written)"
            return (action.line, message)
        }
    }

    /// The alarm `a` is, or nil for one kept verbatim; `verdict` is `a`'s own.
    static func alarm(_ a: ICSComponent, _ values: ValueReader, repairs: RepairLog, verdict: Verdict) throws(ICSError) -> Alarm? {
        if verdict.isKeptVerbatim { return nil }
        var extras = a.properties.filter { !modelled.contains($0.name) }.map(\.contentLine)
        for sub in a.components where sub.name != "VLOCATION" { extras += sub.contentLines }
        if let place = try location(a, values, repairs: repairs) {
            var alarm = Alarm.location(place.location, place.proximity)
            // Apple's line says more than the place Chime keeps (X-ADDRESS, the map's reference
            // frame): kept whole, and written back while the place is the same (see ICSWriter).
            if let apple = a["X-APPLE-STRUCTURED-LOCATION"], apple.parameters.contains(where: { !Self.applePlaceParameters.contains($0.name) }),
                AlarmReader.applePlace(apple) == place.location
            {
                extras.append(apple.contentLine)
            }
            alarm.icsExtras = extras
            return alarm
        }
        guard let trigger = a["TRIGGER"] else {
            throw ICSError(file: values.file, line: a.line, property: "VALARM", MessageText("missing TRIGGER"))
        }
        let value = trigger.value.trimmingSpaces
        if value.isKeyword(applePlaceholderTrigger) { return nil }  // a location alarm whose place was lost
        var alarm: Alarm
        if trigger.parameter("VALUE")?.asciiUppercased == "DATE-TIME" || BasicDateTime.parse(value) != nil {
            alarm = .absolute(try values.instant(trigger))
        } else {
            let related: AlarmRelation = trigger.parameter("RELATED")?.asciiUppercased == "END" ? .end : .start
            alarm = .relative(try values.duration(trigger), relatedTo: related)
        }
        alarm.icsExtras = extras
        return alarm
    }

    private static func location(_ a: ICSComponent, _ values: ValueReader, repairs: RepairLog) throws(ICSError) -> (
        location: StructuredLocation, proximity: Proximity
    )? {
        let proximityText = (a["X-APPLE-PROXIMITY"] ?? a["PROXIMITY"])?.value.trimmingSpaces.asciiUppercased
        let proximity: Proximity
        switch proximityText {
        case "ARRIVE"?: proximity = .enter
        case "DEPART"?: proximity = .leave
        default: return nil  // CONNECT/DISCONNECT (vehicle) or none: not a geofence
        }
        // The RFC 9074 VLOCATION, when it has a geo: URL (a server that cuts unknown property
        // values at their first comma, as Radicale does, leaves Apple's form without longitude).
        let vlocation = a.components.lazy.filter { $0.name == "VLOCATION" }
            .compactMap { loc in loc["URL"].flatMap { url in geo(url.value).map { (loc, url, $0) } } }.first
        if let apple = a["X-APPLE-STRUCTURED-LOCATION"] {
            let radius = apple.parameter("X-APPLE-RADIUS").flatMap { Double($0.trimmingSpaces) } ?? 0
            var coordinates = geo(apple.value)
            if coordinates == nil, let (_, _, fromVLocation) = vlocation {
                try repairs.note(
                    line: apple.line, property: apple.name,
                    "\"\(apple.value)\" is not a geo:LAT,LON value (cut at its comma?): the VLOCATION's place used")
                coordinates = fromVLocation
            }
            guard let (lat, lon) = coordinates else { throw values.fail(apple, "expected a geo:LAT,LON value, not \"\(apple.value)\"") }
            let place = StructuredLocation(title: apple.parameter("X-TITLE") ?? "", latitude: lat, longitude: lon, radius: max(0, radius))
            do { try place.validate() } catch { throw values.fail(apple, "\(error)") }
            return (place, proximity)
        }
        for loc in a.components where loc.name == "VLOCATION" {
            if let url = loc["URL"], let (lat, lon) = geo(url.value) {
                let place = StructuredLocation(title: loc["NAME"].map { ICSText.unescape($0.value) } ?? "", latitude: lat, longitude: lon)
                do { try place.validate() } catch { throw values.fail(url, "\(error)") }
                return (place, proximity)
            }
        }
        return nil
    }

    /// The parameters of `X-APPLE-STRUCTURED-LOCATION` that Chime's place holds.
    static let applePlaceParameters: Set<String> = ["VALUE", "X-APPLE-RADIUS", "X-TITLE"]

    /// The place an `X-APPLE-STRUCTURED-LOCATION` line names, nil when its value is no geo: URI.
    static func applePlace(_ apple: ICSProperty) -> StructuredLocation? {
        guard let (lat, lon) = geo(apple.value) else { return nil }
        let radius = apple.parameter("X-APPLE-RADIUS").flatMap { Double($0.trimmingSpaces) } ?? 0
        return StructuredLocation(title: apple.parameter("X-TITLE") ?? "", latitude: lat, longitude: lon, radius: max(0, radius))
    }

    /// An alarm's kept `X-APPLE-STRUCTURED-LOCATION` line and the place it names.
    static func keptApplePlace(_ line: String) -> StructuredLocation? {
        guard ICalendarText.isLine(line, of: "X-APPLE-STRUCTURED-LOCATION"),
            let property = try? ContentLines.property(Array(line.utf8), line: 0, file: "")
        else { return nil }
        return applePlace(property)
    }

    /// `geo:52.52,13.40` (RFC 5870; parameters after `;` ignored; a comma escaped as TEXT, `\,`, read as one).
    static func geo(_ value: String) -> (Double, Double)? {
        var v = Substring(value.trimmingSpaces.filter { $0 != "\\" })
        guard v.lowercased().hasPrefix("geo:") else { return nil }
        v = v.dropFirst(4)
        if let semicolon = v.firstIndex(of: ";") { v = v[..<semicolon] }
        let parts = v.split(separator: ",")
        guard parts.count >= 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        return (lat, lon)
    }
}
