/// A cron expression that cannot be used, with the field at fault and what was expected.
///
/// The description is one line a user can act on, e.g.
/// `minute field "61": 61 is out of range 0–59` or
/// `cron expression "0 0 * *": expected 5 fields (minute hour day-of-month month day-of-week) or a macro such as @daily, found 4`.
public struct ScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field at fault, or nil when the expression as a whole is wrong (field count, unknown macro).
    public var field: CronField?
    /// The text of that field as written, or the whole expression when `field` is nil.
    public var text: String
    /// What is wrong and what was expected.
    public var message: String

    public init(field: CronField?, text: String, message: String) {
        self.field = field
        self.text = text
        self.message = message
    }

    public var description: String {
        let place = field.map { "\($0) field" } ?? "cron expression"
        return "\(place) \"\(text)\": \(message)"
    }
}
