import Foundation

/// Windows time zone names, as Outlook and Exchange write them in TZID, mapped to IANA zones:
/// CLDR's `windowsZones.xml` "001" (golden zone) mapping, written with today's canonical tzdata
/// names (Asia/Kolkata, not Asia/Calcutta), plus the English display names Windows shows for the
/// most used zones (`(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna`).
///
/// ```swift
/// WindowsZones.ianaIdentifier(for: "W. Europe Standard Time")    // "Europe/Berlin"
/// WindowsZones.ianaIdentifier(for: "\"pacific standard time\"")  // "America/Los_Angeles"
/// WindowsZones.ianaIdentifier(for: "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna")  // "Europe/Berlin"
/// WindowsZones.ianaIdentifier(for: "Customized Time Zone")       // nil
/// ```
public enum WindowsZones {
    /// The IANA zone for a Windows zone name or display name; case, surrounding quotes, TEXT
    /// escapes (`\,`) and runs of spaces do not matter. `nil` for names it does not know.
    public static func ianaIdentifier(for windowsName: String) -> String? {
        let key = normalized(windowsName)
        guard let iana = standardNames[key] ?? displayName(key).flatMap({ displayNames[$0] }) else { return nil }
        return installedName(iana)
    }

    /// Lower case, without quotes or backslashes, spaces collapsed.
    private static func normalized(_ name: String) -> String {
        var s = name.replacingOccurrences(of: "\\", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        while s.count >= 2, s.first == "\"" || s.first == "'", s.last == s.first { s = String(s.dropFirst().dropLast()) }
        return s.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `(utc+01:00) amsterdam, berlin` → `amsterdam, berlin`; `(gmt) …` likewise.
    private static func displayName(_ key: String) -> String? {
        guard key.hasPrefix("(utc") || key.hasPrefix("(gmt"), let close = key.firstIndex(of: ")") else { return nil }
        return key[key.index(after: close)...].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    }

    /// Canonical names newer than some installed tzdata: fall back to the old name when only it exists.
    private static let olderNames = [
        "Europe/Kyiv": "Europe/Kiev", "America/Nuuk": "America/Godthab", "Asia/Kolkata": "Asia/Calcutta",
        "Asia/Kathmandu": "Asia/Katmandu", "Asia/Yangon": "Asia/Rangoon"
    ]

    private static func installedName(_ iana: String) -> String {
        guard let old = olderNames[iana] else { return iana }
        let directory = ZoneRules.zoneInfoDirectory + "/"
        if !FileManager.default.fileExists(atPath: directory + iana) && FileManager.default.fileExists(atPath: directory + old) {
            return old
        }
        return iana
    }

    /// Windows zone key names (lower-cased) → IANA, CLDR territory "001".
    static let standardNames: [String: String] = Dictionary(uniqueKeysWithValues: standardNameList.map { ($0.0.lowercased(), $0.1) })

    /// The IANA zones of ``standardNames``, one per Windows zone, in CLDR's order (by UTC offset,
    /// then as CLDR lists them), without repeats: the representative zone of each Windows zone.
    /// A file-defined VTIMEZONE that matches several tzdata zones is given the first of these.
    static let representativeZones: [String] = {
        var seen: Set<String> = []
        return standardNameList.map { installedName($0.1) }.filter { seen.insert($0).inserted }
    }()

    /// Windows zone key names → IANA, CLDR territory "001", in CLDR's order.
    private static let standardNameList: [(String, String)] = [
        ("Dateline Standard Time", "Etc/GMT+12"),
        ("UTC-11", "Etc/GMT+11"),
        ("Aleutian Standard Time", "America/Adak"),
        ("Hawaiian Standard Time", "Pacific/Honolulu"),
        ("Marquesas Standard Time", "Pacific/Marquesas"),
        ("Alaskan Standard Time", "America/Anchorage"),
        ("UTC-09", "Etc/GMT+9"),
        ("Pacific Standard Time (Mexico)", "America/Tijuana"),
        ("UTC-08", "Etc/GMT+8"),
        ("Pacific Standard Time", "America/Los_Angeles"),
        ("US Mountain Standard Time", "America/Phoenix"),
        ("Mountain Standard Time (Mexico)", "America/Mazatlan"),
        ("Mountain Standard Time", "America/Denver"),
        ("Yukon Standard Time", "America/Whitehorse"),
        ("Central America Standard Time", "America/Guatemala"),
        ("Central Standard Time", "America/Chicago"),
        ("Easter Island Standard Time", "Pacific/Easter"),
        ("Central Standard Time (Mexico)", "America/Mexico_City"),
        ("Mexico Standard Time", "America/Mexico_City"),
        ("Canada Central Standard Time", "America/Regina"),
        ("SA Pacific Standard Time", "America/Bogota"),
        ("Eastern Standard Time (Mexico)", "America/Cancun"),
        ("Eastern Standard Time", "America/New_York"),
        ("Haiti Standard Time", "America/Port-au-Prince"),
        ("Cuba Standard Time", "America/Havana"),
        ("US Eastern Standard Time", "America/Indiana/Indianapolis"),
        ("Turks And Caicos Standard Time", "America/Grand_Turk"),
        ("Paraguay Standard Time", "America/Asuncion"),
        ("Atlantic Standard Time", "America/Halifax"),
        ("Venezuela Standard Time", "America/Caracas"),
        ("Central Brazilian Standard Time", "America/Cuiaba"),
        ("SA Western Standard Time", "America/La_Paz"),
        ("Pacific SA Standard Time", "America/Santiago"),
        ("Newfoundland Standard Time", "America/St_Johns"),
        ("Tocantins Standard Time", "America/Araguaina"),
        ("E. South America Standard Time", "America/Sao_Paulo"),
        ("SA Eastern Standard Time", "America/Cayenne"),
        ("Argentina Standard Time", "America/Argentina/Buenos_Aires"),
        ("Greenland Standard Time", "America/Nuuk"),
        ("Montevideo Standard Time", "America/Montevideo"),
        ("Magallanes Standard Time", "America/Punta_Arenas"),
        ("Saint Pierre Standard Time", "America/Miquelon"),
        ("Bahia Standard Time", "America/Bahia"),
        ("UTC-02", "Etc/GMT+2"),
        ("Mid-Atlantic Standard Time", "Etc/GMT+2"),
        ("Azores Standard Time", "Atlantic/Azores"),
        ("Cape Verde Standard Time", "Atlantic/Cape_Verde"),
        ("UTC", "Etc/UTC"),
        ("GMT Standard Time", "Europe/London"),
        ("Greenwich Standard Time", "Atlantic/Reykjavik"),
        ("Sao Tome Standard Time", "Africa/Sao_Tome"),
        ("Morocco Standard Time", "Africa/Casablanca"),
        ("W. Europe Standard Time", "Europe/Berlin"),
        ("Central Europe Standard Time", "Europe/Budapest"),
        ("Romance Standard Time", "Europe/Paris"),
        ("Central European Standard Time", "Europe/Warsaw"),
        ("W. Central Africa Standard Time", "Africa/Lagos"),
        ("Jordan Standard Time", "Asia/Amman"),
        ("GTB Standard Time", "Europe/Bucharest"),
        ("Middle East Standard Time", "Asia/Beirut"),
        ("Egypt Standard Time", "Africa/Cairo"),
        ("E. Europe Standard Time", "Europe/Chisinau"),
        ("Syria Standard Time", "Asia/Damascus"),
        ("West Bank Standard Time", "Asia/Hebron"),
        ("South Africa Standard Time", "Africa/Johannesburg"),
        ("FLE Standard Time", "Europe/Kyiv"),
        ("Israel Standard Time", "Asia/Jerusalem"),
        ("South Sudan Standard Time", "Africa/Juba"),
        ("Kaliningrad Standard Time", "Europe/Kaliningrad"),
        ("Sudan Standard Time", "Africa/Khartoum"),
        ("Libya Standard Time", "Africa/Tripoli"),
        ("Namibia Standard Time", "Africa/Windhoek"),
        ("Arabic Standard Time", "Asia/Baghdad"),
        ("Turkey Standard Time", "Europe/Istanbul"),
        ("Arab Standard Time", "Asia/Riyadh"),
        ("Belarus Standard Time", "Europe/Minsk"),
        ("Russian Standard Time", "Europe/Moscow"),
        ("E. Africa Standard Time", "Africa/Nairobi"),
        ("Volgograd Standard Time", "Europe/Volgograd"),
        ("Iran Standard Time", "Asia/Tehran"),
        ("Arabian Standard Time", "Asia/Dubai"),
        ("Astrakhan Standard Time", "Europe/Astrakhan"),
        ("Azerbaijan Standard Time", "Asia/Baku"),
        ("Russia Time Zone 3", "Europe/Samara"),
        ("Mauritius Standard Time", "Indian/Mauritius"),
        ("Saratov Standard Time", "Europe/Saratov"),
        ("Georgian Standard Time", "Asia/Tbilisi"),
        ("Caucasus Standard Time", "Asia/Yerevan"),
        ("Armenian Standard Time", "Asia/Yerevan"),
        ("Afghanistan Standard Time", "Asia/Kabul"),
        ("West Asia Standard Time", "Asia/Tashkent"),
        ("Ekaterinburg Standard Time", "Asia/Yekaterinburg"),
        ("Pakistan Standard Time", "Asia/Karachi"),
        ("Qyzylorda Standard Time", "Asia/Qyzylorda"),
        ("India Standard Time", "Asia/Kolkata"),
        ("Sri Lanka Standard Time", "Asia/Colombo"),
        ("Nepal Standard Time", "Asia/Kathmandu"),
        ("Central Asia Standard Time", "Asia/Bishkek"),
        ("Bangladesh Standard Time", "Asia/Dhaka"),
        ("Omsk Standard Time", "Asia/Omsk"),
        ("Myanmar Standard Time", "Asia/Yangon"),
        ("SE Asia Standard Time", "Asia/Bangkok"),
        ("Altai Standard Time", "Asia/Barnaul"),
        ("W. Mongolia Standard Time", "Asia/Hovd"),
        ("North Asia Standard Time", "Asia/Krasnoyarsk"),
        ("N. Central Asia Standard Time", "Asia/Novosibirsk"),
        ("Tomsk Standard Time", "Asia/Tomsk"),
        ("China Standard Time", "Asia/Shanghai"),
        ("North Asia East Standard Time", "Asia/Irkutsk"),
        ("Singapore Standard Time", "Asia/Singapore"),
        ("W. Australia Standard Time", "Australia/Perth"),
        ("Taipei Standard Time", "Asia/Taipei"),
        ("Ulaanbaatar Standard Time", "Asia/Ulaanbaatar"),
        ("Aus Central W. Standard Time", "Australia/Eucla"),
        ("Transbaikal Standard Time", "Asia/Chita"),
        ("Tokyo Standard Time", "Asia/Tokyo"),
        ("North Korea Standard Time", "Asia/Pyongyang"),
        ("Korea Standard Time", "Asia/Seoul"),
        ("Yakutsk Standard Time", "Asia/Yakutsk"),
        ("Cen. Australia Standard Time", "Australia/Adelaide"),
        ("AUS Central Standard Time", "Australia/Darwin"),
        ("E. Australia Standard Time", "Australia/Brisbane"),
        ("AUS Eastern Standard Time", "Australia/Sydney"),
        ("West Pacific Standard Time", "Pacific/Port_Moresby"),
        ("Tasmania Standard Time", "Australia/Hobart"),
        ("Vladivostok Standard Time", "Asia/Vladivostok"),
        ("Lord Howe Standard Time", "Australia/Lord_Howe"),
        ("Bougainville Standard Time", "Pacific/Bougainville"),
        ("Russia Time Zone 10", "Asia/Srednekolymsk"),
        ("Magadan Standard Time", "Asia/Magadan"),
        ("Norfolk Standard Time", "Pacific/Norfolk"),
        ("Sakhalin Standard Time", "Asia/Sakhalin"),
        ("Central Pacific Standard Time", "Pacific/Guadalcanal"),
        ("Russia Time Zone 11", "Asia/Kamchatka"),
        ("Kamchatka Standard Time", "Asia/Kamchatka"),
        ("New Zealand Standard Time", "Pacific/Auckland"),
        ("UTC+12", "Etc/GMT-12"),
        ("Fiji Standard Time", "Pacific/Fiji"),
        ("Chatham Islands Standard Time", "Pacific/Chatham"),
        ("UTC+13", "Etc/GMT-13"),
        ("Tonga Standard Time", "Pacific/Tongatapu"),
        ("Samoa Standard Time", "Pacific/Apia"),
        ("Line Islands Standard Time", "Pacific/Kiritimati")
    ]

    /// Windows display names (lower-cased, without the `(UTC±hh:mm)` prefix) → IANA.
    static let displayNames: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            ("International Date Line West", "Etc/GMT+12"),
            ("Hawaii", "Pacific/Honolulu"),
            ("Alaska", "America/Anchorage"),
            ("Pacific Time (US & Canada)", "America/Los_Angeles"),
            ("Arizona", "America/Phoenix"),
            ("Mountain Time (US & Canada)", "America/Denver"),
            ("Central Time (US & Canada)", "America/Chicago"),
            ("Guadalajara, Mexico City, Monterrey", "America/Mexico_City"),
            ("Saskatchewan", "America/Regina"),
            ("Eastern Time (US & Canada)", "America/New_York"),
            ("Bogota, Lima, Quito, Rio Branco", "America/Bogota"),
            ("Atlantic Time (Canada)", "America/Halifax"),
            ("Newfoundland", "America/St_Johns"),
            ("Brasilia", "America/Sao_Paulo"),
            ("City of Buenos Aires", "America/Argentina/Buenos_Aires"),
            ("Coordinated Universal Time", "Etc/UTC"),
            ("Dublin, Edinburgh, Lisbon, London", "Europe/London"),
            ("Greenwich Mean Time : Dublin, Edinburgh, Lisbon, London", "Europe/London"),
            ("Monrovia, Reykjavik", "Atlantic/Reykjavik"),
            ("Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
            ("Belgrade, Bratislava, Budapest, Ljubljana, Prague", "Europe/Budapest"),
            ("Brussels, Copenhagen, Madrid, Paris", "Europe/Paris"),
            ("Sarajevo, Skopje, Warsaw, Zagreb", "Europe/Warsaw"),
            ("West Central Africa", "Africa/Lagos"),
            ("Athens, Bucharest", "Europe/Bucharest"),
            ("Cairo", "Africa/Cairo"),
            ("Harare, Pretoria", "Africa/Johannesburg"),
            ("Helsinki, Kyiv, Riga, Sofia, Tallinn, Vilnius", "Europe/Kyiv"),
            ("Helsinki, Kiev, Riga, Sofia, Tallinn, Vilnius", "Europe/Kyiv"),
            ("Jerusalem", "Asia/Jerusalem"),
            ("Istanbul", "Europe/Istanbul"),
            ("Moscow, St. Petersburg", "Europe/Moscow"),
            ("Moscow, St. Petersburg, Volgograd", "Europe/Moscow"),
            ("Kuwait, Riyadh", "Asia/Riyadh"),
            ("Nairobi", "Africa/Nairobi"),
            ("Tehran", "Asia/Tehran"),
            ("Abu Dhabi, Muscat", "Asia/Dubai"),
            ("Islamabad, Karachi", "Asia/Karachi"),
            ("Chennai, Kolkata, Mumbai, New Delhi", "Asia/Kolkata"),
            ("Kathmandu", "Asia/Kathmandu"),
            ("Dhaka", "Asia/Dhaka"),
            ("Bangkok, Hanoi, Jakarta", "Asia/Bangkok"),
            ("Beijing, Chongqing, Hong Kong, Urumqi", "Asia/Shanghai"),
            ("Kuala Lumpur, Singapore", "Asia/Singapore"),
            ("Perth", "Australia/Perth"),
            ("Taipei", "Asia/Taipei"),
            ("Osaka, Sapporo, Tokyo", "Asia/Tokyo"),
            ("Seoul", "Asia/Seoul"),
            ("Adelaide", "Australia/Adelaide"),
            ("Darwin", "Australia/Darwin"),
            ("Brisbane", "Australia/Brisbane"),
            ("Canberra, Melbourne, Sydney", "Australia/Sydney"),
            ("Hobart", "Australia/Hobart"),
            ("Auckland, Wellington", "Pacific/Auckland")
        ].map { ($0.0.lowercased(), $0.1) })
}
