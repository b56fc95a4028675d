import ChimeCore

/// Who "I" am: the addresses whose invitations are the user's own, from the accounts' servers and
/// the calendars' names, beside the configuration's `[identity] addresses`.
extension EventStore {
    /// The titles of calendars named after an address (`ana@gmail.com`): Google names a person's
    /// own calendar after them, and its export and feed carry that name (X-WR-CALNAME), which
    /// `import --new-calendar` and `calendar subscribe` take as the title. Who "I" am when nothing
    /// else says.
    public func calendarOwnerAddresses() throws(StoreError) -> [String] {
        try calendars(for: .event).map(\.title).filter(Self.looksLikeAddress).sorted()
    }

    /// One word, with one `@` between a name and a dotted domain: `ana@gmail.com`, not `Team @ 10`.
    static func looksLikeAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
    }

    /// `defaults` with the user's addresses on the accounts' servers added to who "I" am: what the
    /// scheduler, `chime alarms` and the D-Bus service decide ringing with. When neither the
    /// configuration nor an account names one, a calendar named after an address does
    /// (``calendarOwnerAddresses()``).
    public func alarmDefaults(_ defaults: AlarmDefaults) throws(StoreError) -> AlarmDefaults {
        var d = defaults
        d.identity.add(try sync.accountAddresses())
        if d.identity.isEmpty { d.identity.add(try calendarOwnerAddresses()) }
        return d
    }
}
