import Foundation

/// A parsed five-field cron expression, and the instants it fires at in a time zone.
///
/// Fields are `minute hour day-of-month month day-of-week`, each `*`, a value, a range `1-5`, a
/// step `*/15`, `10-50/20` or `5/15` (from 5 to the field's maximum), or a comma list of these.
/// Months take `JAN`–`DEC` and weekdays `SUN`–`SAT` (any case, also in ranges: `MON-FRI`);
/// weekday 0 and 7 are both Sunday. The macros `@yearly` (`@annually`), `@monthly`, `@weekly`,
/// `@daily` (`@midnight`) and `@hourly` stand for their usual expressions.
///
/// The day rule is Vixie cron's: when both day fields are restricted (neither starts with `*`),
/// a day matches if EITHER matches (`0 0 1 * MON` is the 1st and every Monday); otherwise both
/// must. As in Vixie cron, a stepped field such as `*/2` starts with `*` and so counts as
/// unrestricted for this rule.
///
/// ## Daylight-saving time
/// Times are wall-clock times in the time zone given to ``nextDate(after:in:)``. Where the clock
/// jumps, this follows Vixie/ISC cron, which sorts jobs by whether the minute or the hour field
/// starts with `*` (`*/15 * * * *`, `0 * * * *`, `@hourly`: "wildcard" jobs) or neither does
/// (`30 2 * * *`, `@daily`: "fixed-time" jobs):
/// - **Spring forward** (Berlin 2026-03-29 02:00 → 03:00): a fixed-time job whose time falls in
///   the skipped hour runs once, at the first instant after the gap (03:00 local, the transition
///   instant); several such times in one gap still make one run. A wildcard job runs only at the
///   wall-clock times that exist, so `30 * * * *` skips 02:30 and runs at 03:30.
/// - **Fall back** (Berlin 2026-10-25 03:00 → 02:00): a fixed-time job runs only at the first
///   occurrence of a repeated time (`30 2 * * *` at 02:30 CEST = 00:30 UTC, not again at 02:30
///   CET); a wildcard job runs in both occurrences, so `0 * * * *` runs every real hour.
///
/// Time-zone offsets come from `TimeZone.secondsFromGMT(for:)` and
/// `nextDaylightSavingTimeTransition(after:)`; calendar arithmetic is proleptic Gregorian.
public struct CronSchedule: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written, e.g. `@daily` or `*/15 9-17 * * MON-FRI`.
    public let expression: String

    let minutes: ValueSet
    let hours: ValueSet
    let daysOfMonth: ValueSet
    let months: ValueSet
    /// 0 = Sunday … 6 = Saturday (a written 7 is stored as 0).
    let daysOfWeek: ValueSet
    /// Whether the day fields start with `*`, for Vixie's either-day rule.
    let dayOfMonthIsStar: Bool
    let dayOfWeekIsStar: Bool
    /// Whether the minute or the hour field starts with `*`, for the daylight-saving rules.
    let isWildcard: Bool
    /// False when no date can ever match, e.g. `0 0 30 2 *` (parsing refuses such expressions).
    let isSatisfiable: Bool

    public var description: String { expression }

    init(expression: String, fields: [CronField: (values: ValueSet, isStar: Bool)]) {
        self.expression = expression
        minutes = fields[.minute]!.values
        hours = fields[.hour]!.values
        daysOfMonth = fields[.dayOfMonth]!.values
        months = fields[.month]!.values
        daysOfWeek = fields[.dayOfWeek]!.values
        dayOfMonthIsStar = fields[.dayOfMonth]!.isStar
        dayOfWeekIsStar = fields[.dayOfWeek]!.isStar
        isWildcard = fields[.minute]!.isStar || fields[.hour]!.isStar
        // With the either-day rule every month has a matching weekday. Otherwise some chosen
        // month must have a chosen day; the weekday then lines up within the 400-year cycle.
        let (months, firstDay) = (months, daysOfMonth.first(atLeast: 1) ?? 32)
        isSatisfiable = (!dayOfMonthIsStar && !dayOfWeekIsStar) || (1...12).contains { month in
            months.contains(month) && firstDay <= CivilTime.daysIn(month: month, year: 2000)  // a leap year
        }
    }

    /// Whether the day (not its time) matches the day-of-month, month and day-of-week fields.
    func matchesDay(_ t: CivilTime) -> Bool {
        guard months.contains(t.month) else { return false }
        let dayOfMonth = daysOfMonth.contains(t.day)
        let dayOfWeek = daysOfWeek.contains(t.weekday)
        return dayOfMonthIsStar || dayOfWeekIsStar ? dayOfMonth && dayOfWeek : dayOfMonth || dayOfWeek
    }
}
