import ChimeCore
import Testing

/// An item's kept iCalendar lines hold whole components (an e-mail VALARM) beside its own
/// properties: reading and removing must tell the two apart, nested components included.
struct KeptLinesTests {
    static let lines = [
        "X-MOZ-GENERATION:2", "BEGIN:VALARM", "ACTION:EMAIL", "ATTENDEE:mailto:a@example.com", "end:valarm",
        "STATUS:CONFIRMED", "BEGIN:X-THING", "BEGIN:VALARM", "ACTION:AUDIO", "END:VALARM", "X-IN:1", "END:X-THING",
        "BEGIN:VALARM", "ACTION:EMAIL", "END:VALARM", "X-LAST:1"
    ]

    @Test func theItemsOwnLinesAreTheTopLevelOnes() {
        #expect(ICalendarText.topLevelIndices(Self.lines) == [0, 5, 15])
        #expect(ICalendarText.topLevel(Self.lines) == ["X-MOZ-GENERATION:2", "STATUS:CONFIRMED", "X-LAST:1"])
    }

    @Test func removingVAlarmsLeavesOtherComponentsWhole() {
        #expect(
            ICalendarText.removingComponents(named: "valarm", from: Self.lines) == [
                "X-MOZ-GENERATION:2", "STATUS:CONFIRMED", "BEGIN:X-THING", "BEGIN:VALARM", "ACTION:AUDIO", "END:VALARM", "X-IN:1",
                "END:X-THING", "X-LAST:1"
            ])
    }

    /// The place Apple pins to a location goes with the location it was stored with; one the
    /// writer brought, or one inside a kept component, stays.
    @Test func aStalePinGoesWithTheOldLocation() {
        let pin = "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Office:geo:52.52,13.40"
        let fresh = "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Depot:geo:48.14,11.58"
        #expect(ICalendarText.keptAfterLocationChange(["X-A:1", pin, "X-B:2"], stored: [pin]) == ["X-A:1", "X-B:2"])
        #expect(ICalendarText.keptAfterLocationChange(["X-A:1", fresh], stored: [pin]) == ["X-A:1", fresh])
        let inAlarm = ["BEGIN:VALARM", pin, "END:VALARM"]
        #expect(ICalendarText.keptAfterLocationChange(inAlarm, stored: [pin]) == inAlarm)
    }
}
