/// One of the five fields of a cron expression, in the order they are written.
public enum CronField: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case minute
    case hour
    case dayOfMonth = "day-of-month"
    case month
    case dayOfWeek = "day-of-week"

    public var description: String { rawValue }

    /// The values the field accepts; day-of-week takes 7 as well as 0 for Sunday.
    var bounds: ClosedRange<Int> {
        switch self {
        case .minute: 0...59
        case .hour: 0...23
        case .dayOfMonth: 1...31
        case .month: 1...12
        case .dayOfWeek: 0...7
        }
    }

    /// The values `*` stands for, and the upper end of an open step such as `5/15`.
    var all: ClosedRange<Int> { self == .dayOfWeek ? 0...6 : bounds }

    /// The three-letter names the field accepts (case-insensitive), indexed from the field's first value.
    var names: [String] {
        switch self {
        case .month: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        case .dayOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
        default: []
        }
    }
}
