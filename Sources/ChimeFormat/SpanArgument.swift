import ChimeCore
import ChimeStore

/// `--span` (and the D-Bus service's `span`): which occurrences of a recurring event a change applies to.
public enum SpanArgument: String, CaseIterable, Sendable {
    /// `all`: the whole series, confirmed (a start moved to another day drops what it names).
    case this, future, all
    public var span: Span { self == .this ? .thisEvent : .futureEvents }
}
