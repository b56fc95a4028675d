/// Why an RRULE was rejected. Every case names the rule part and, where there is one, the value.
///
/// ```swift
/// do { _ = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=0") }
/// catch { print(error) }   // BYMONTHDAY=0: values must be -31…-1 or 1…31
/// ```
public enum RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not `NAME=VALUE;NAME=VALUE…`.
    case syntax(String, reason: String)
    case missingFrequency
    case unknownPart(String)
    case duplicatePart(String)
    /// A value outside what the part allows: part, the offending value, what is allowed.
    case invalidValue(part: String, value: String, expected: String)
    /// A part the frequency does not allow (e.g. BYWEEKNO outside YEARLY).
    case notAllowed(part: String, value: String, reason: String)
    /// Two parts that exclude each other.
    case conflict(String)
    /// Words that are not a repeat phrase (and no `=`, so not an RRULE either).
    case notARepeat(String)

    public var description: String {
        switch self {
        case .syntax(let text, let reason): return "\"\(text)\": \(reason)"
        case .missingFrequency: return "FREQ is required (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)"
        case .unknownPart(let name): return "\(name): unknown rule part"
        case .duplicatePart(let name): return "\(name): given more than once"
        case .invalidValue(let part, let value, let expected): return "\(part)=\(value): \(expected)"
        case .notAllowed(let part, let value, let reason): return "\(part)=\(value): \(reason)"
        case .conflict(let message): return message
        case .notARepeat(let text): return "\"\(text)\": not a repeat; use \(RecurrenceRule.phraseForms)"
        }
    }
}
