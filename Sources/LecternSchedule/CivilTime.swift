/// Proleptic Gregorian calendar arithmetic on wall-clock time counted in seconds since
/// 1970-01-01 00:00 as if it were UTC (Howard Hinnant's `days_from_civil` algorithms).
///
/// The schedule search works on these naive wall-clock seconds and converts to instants with the
/// time zone's offset itself, so no answer depends on how `Calendar` resolves a local time that
/// does not exist or exists twice.
struct CivilTime: Sendable, Hashable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
    }

    /// The wall-clock minute containing `wallSeconds`.
    init(wallSeconds: Int) {
        let days = Self.floorDiv(wallSeconds, 86_400)
        let secondOfDay = wallSeconds - days * 86_400
        (year, month, day) = Self.civil(fromDays: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
    }

    /// Wall-clock seconds of this minute. A day past the month's end counts into the next month.
    var wallSeconds: Int {
        Self.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
    }

    /// 0 = Sunday … 6 = Saturday.
    var weekday: Int {
        let days = Self.days(year: year, month: month, day: day)
        return ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Days since 1970-01-01.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12  // March = 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
