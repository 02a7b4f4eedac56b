import Foundation
import Testing
@testable import LecternSchedule

/// One hand-worked case: the first run strictly after `after`, or nil for an impossible expression.
///
/// Calendar facts the cases rely on: 2026-01-01 is a Thursday; in 2026 May 1 is a Friday, May 10
/// a Sunday, Feb 1 a Sunday. Europe/Berlin springs forward on 2026-03-29 at 02:00 CET (01:00 UTC)
/// and falls back on 2026-10-25 at 03:00 CEST (01:00 UTC); America/New_York springs forward on
/// 2026-03-08 at 02:00 EST (07:00 UTC) and falls back on 2026-11-01 at 02:00 EDT (06:00 UTC);
/// Australia/Lord_Howe (+10:30 / +11:00) falls back on 2026-04-05 at 02:00 (04-04 15:00 UTC)
/// and springs forward on 2026-10-04 at 02:00 (10-03 15:30 UTC).
struct NextDateCase: Sendable, CustomTestStringConvertible {
    var expression: String
    var zone: String
    var after: String
    var expected: String?
    var note: String

    init(_ expression: String, _ zone: String = "UTC", after: String, _ expected: String?, _ note: String) {
        self.expression = expression
        self.zone = zone
        self.after = after
        self.expected = expected
        self.note = note
    }

    var testDescription: String { "\(expression) in \(zone) after \(after): \(note)" }
}

let nextDateCases: [NextDateCase] = [
    // Every minute, steps, ranges, lists.
    .init("* * * * *", after: "2026-05-10T12:34:56Z", "2026-05-10T12:35:00Z", "next whole minute"),
    .init("* * * * *", after: "2026-05-10T12:34:00Z", "2026-05-10T12:35:00Z", "strictly after a matching minute"),
    .init("* * * * *", after: "2026-12-31T23:59:59Z", "2027-01-01T00:00:00Z", "minute rolls over the year"),
    .init("*/15 * * * *", after: "2026-05-10T12:34:56Z", "2026-05-10T12:45:00Z", "step over the whole field"),
    .init("*/15 * * * *", after: "2026-05-10T23:59:00Z", "2026-05-11T00:00:00Z", "step rolls over the day"),
    .init("10-50/20 * * * *", after: "2026-05-10T12:30:00Z", "2026-05-10T12:50:00Z", "stepped range is 10,30,50"),
    .init("10-50/20 * * * *", after: "2026-05-10T12:50:00Z", "2026-05-10T13:10:00Z", "stepped range wraps to the next hour"),
    .init("5/15 * * * *", after: "2026-05-10T12:50:00Z", "2026-05-10T13:05:00Z", "5/15 is 5,20,35,50"),
    .init("15,45 * * * *", after: "2026-05-10T12:15:00Z", "2026-05-10T12:45:00Z", "list"),
    .init("0 9-17 * * *", after: "2026-05-10T08:59:59Z", "2026-05-10T09:00:00Z", "start of an hour range"),
    .init("0 9-17 * * *", after: "2026-05-10T17:00:00Z", "2026-05-11T09:00:00Z", "after the range, next day"),
    .init("0 0,12 1,15 * *", after: "2026-05-01T12:00:00Z", "2026-05-15T00:00:00Z", "lists in hour and day"),
    // Names, Sunday as 0 and 7.
    .init("0 0 1 JAN *", after: "2026-05-10T00:00:00Z", "2027-01-01T00:00:00Z", "month name"),
    .init("0 0 1 mar-may *", after: "2026-05-01T00:00:00Z", "2027-03-01T00:00:00Z", "lower-case month range"),
    .init("0 0 1 jan,Jul *", after: "2026-01-01T00:00:00Z", "2026-07-01T00:00:00Z", "list of month names"),
    .init("30 8 * * MON-FRI", after: "2026-05-08T09:00:00Z", "2026-05-11T08:30:00Z", "Friday after the run: Monday"),
    .init("0 10 * * sun", after: "2026-05-10T10:00:00Z", "2026-05-17T10:00:00Z", "lower-case weekday"),
    .init("0 10 * * 0", after: "2026-05-11T00:00:00Z", "2026-05-17T10:00:00Z", "0 is Sunday"),
    .init("0 10 * * 7", after: "2026-05-11T00:00:00Z", "2026-05-17T10:00:00Z", "7 is Sunday"),
    .init("0 0 * * 5-7", after: "2026-05-10T00:00:00Z", "2026-05-15T00:00:00Z", "5-7 is Friday to Sunday"),
    .init("0 0 * * 1-5/2", after: "2026-05-11T00:00:00Z", "2026-05-13T00:00:00Z", "Monday, Wednesday, Friday"),
    // The day-of-month / day-of-week rule.
    .init("0 0 13 * FRI", after: "2026-02-01T00:00:00Z", "2026-02-06T00:00:00Z", "either day: the first Friday"),
    .init("0 0 13 * FRI", after: "2026-02-06T00:00:00Z", "2026-02-13T00:00:00Z", "either day: the 13th"),
    .init("0 12 1 * MON", after: "2026-04-28T00:00:00Z", "2026-05-01T12:00:00Z", "either day: the 1st, a Friday"),
    .init("0 0 30 2 MON", after: "2026-01-01T00:00:00Z", "2026-02-02T00:00:00Z", "either day: no Feb 30, but Mondays"),
    .init("0 0 * * MON", after: "2026-05-01T00:00:00Z", "2026-05-04T00:00:00Z", "day-of-month * : weekday alone"),
    .init("0 0 */10 * MON", after: "2026-05-01T00:00:00Z", "2026-05-11T00:00:00Z", "*/10 counts as *: both must match"),
    // Month ends, leap days, year rollover.
    .init("0 0 31 * *", after: "2026-04-01T00:00:00Z", "2026-05-31T00:00:00Z", "the 31st skips April"),
    .init("0 0 31 * *", after: "2026-05-31T00:00:00Z", "2026-07-31T00:00:00Z", "the 31st skips June"),
    .init("0 0 30 * *", after: "2026-01-30T00:00:00Z", "2026-03-30T00:00:00Z", "the 30th skips February"),
    .init("0 0 29 2 *", after: "2026-01-01T00:00:00Z", "2028-02-29T00:00:00Z", "Feb 29: next leap year"),
    .init("0 0 29 2 *", after: "2096-02-29T00:00:00Z", "2104-02-29T00:00:00Z", "2100 is not a leap year"),
    .init("0 0 29 2 *", "Europe/Berlin", after: "2026-01-01T00:00:00Z", "2028-02-29T00:00:00+01:00", "Feb 29 in Berlin"),
    .init("59 23 31 12 *", after: "2026-12-31T23:59:00Z", "2027-12-31T23:59:00Z", "once a year, next year"),
    .init("0 0 1 1 *", after: "2026-12-31T23:59:30Z", "2027-01-01T00:00:00Z", "new year"),
    // Macros.
    .init("@yearly", after: "2026-06-15T00:00:00Z", "2027-01-01T00:00:00Z", "@yearly"),
    .init("@annually", after: "2027-01-01T00:00:00Z", "2028-01-01T00:00:00Z", "@annually, strictly after"),
    .init("@monthly", after: "2026-01-31T12:00:00Z", "2026-02-01T00:00:00Z", "@monthly"),
    .init("@weekly", after: "2026-05-10T00:00:00Z", "2026-05-17T00:00:00Z", "@weekly is Sunday midnight"),
    .init("@daily", after: "2026-05-10T23:59:59Z", "2026-05-11T00:00:00Z", "@daily"),
    .init("@midnight", after: "2026-05-10T00:00:00Z", "2026-05-11T00:00:00Z", "@midnight, strictly after"),
    .init("@hourly", after: "2026-05-10T13:00:00Z", "2026-05-10T14:00:00Z", "@hourly at xx:00 exactly"),
    .init("@HOURLY", after: "2026-05-10T12:59:59Z", "2026-05-10T13:00:00Z", "macros ignore case"),
    // Fixed offsets.
    .init("0 9 * * *", "Asia/Kolkata", after: "2026-05-10T00:00:00Z", "2026-05-10T09:00:00+05:30", "+05:30 zone"),
    .init("0,45 * * * *", "Asia/Kolkata", after: "2026-05-10T03:20:00Z", "2026-05-10T09:00:00+05:30", "minutes in a half-hour zone"),
    .init("0 12 * * MON-FRI", "America/New_York", after: "2026-05-08T12:00:00-04:00", "2026-05-11T12:00:00-04:00", "weekdays in local time"),
    // Spring forward, Berlin: 02:00-02:59 does not exist on 2026-03-29.
    .init("30 2 * * *", "Europe/Berlin", after: "2026-03-28T12:00:00+01:00", "2026-03-29T03:00:00+02:00", "fixed time in the gap runs when it ends"),
    .init("30 2 * * *", "Europe/Berlin", after: "2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00", "after the gap run: next day"),
    .init("0,30 2 * * *", "Europe/Berlin", after: "2026-03-29T03:00:00+02:00", "2026-03-30T02:00:00+02:00", "two times in one gap make one run"),
    .init("30 1 * * *", "Europe/Berlin", after: "2026-03-29T00:00:00+01:00", "2026-03-29T01:30:00+01:00", "just before the gap"),
    .init("0 3 * * *", "Europe/Berlin", after: "2026-03-29T00:00:00+01:00", "2026-03-29T03:00:00+02:00", "just after the gap"),
    .init("*/15 * * * *", "Europe/Berlin", after: "2026-03-29T01:45:00+01:00", "2026-03-29T03:00:00+02:00", "wildcard job across the gap"),
    .init("30 * * * *", "Europe/Berlin", after: "2026-03-29T01:45:00+01:00", "2026-03-29T03:30:00+02:00", "hour * : 02:30 is skipped"),
    .init("*/15 2 * * *", "Europe/Berlin", after: "2026-03-29T00:00:00+01:00", "2026-03-30T02:00:00+02:00", "minute * : gap times are skipped"),
    // Spring forward, New York: 02:00-02:59 does not exist on 2026-03-08.
    .init("30 2 * * *", "America/New_York", after: "2026-03-07T12:00:00-05:00", "2026-03-08T03:00:00-04:00", "fixed time in the gap"),
    .init("59 1 * * *", "America/New_York", after: "2026-03-08T00:00:00-05:00", "2026-03-08T01:59:00-05:00", "last minute before the gap"),
    .init("0 * * * *", "America/New_York", after: "2026-03-08T01:30:00-05:00", "2026-03-08T03:00:00-04:00", "hourly across the gap"),
    // Fall back, Berlin: 02:00-02:59 happens twice on 2026-10-25 (00:00-00:59 and 01:00-01:59 UTC).
    .init("0 2 * * *", "Europe/Berlin", after: "2026-10-24T23:59:00Z", "2026-10-25T02:00:00+02:00", "first occurrence"),
    .init("30 2 * * *", "Europe/Berlin", after: "2026-10-24T12:00:00+02:00", "2026-10-25T00:30:00Z", "02:30 CEST"),
    .init("30 2 * * *", "Europe/Berlin", after: "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z", "not again at 02:30 CET"),
    .init("30 2 * * *", "Europe/Berlin", after: "2026-10-25T01:10:00Z", "2026-10-26T02:30:00+01:00", "asked during the repeat"),
    .init("*/30 * * * *", "Europe/Berlin", after: "2026-10-25T00:00:00Z", "2026-10-25T00:30:00Z", "02:30 CEST"),
    .init("*/30 * * * *", "Europe/Berlin", after: "2026-10-25T00:45:00Z", "2026-10-25T01:00:00Z", "02:00 CET, the repeat"),
    .init("*/30 * * * *", "Europe/Berlin", after: "2026-10-25T01:00:00Z", "2026-10-25T01:30:00Z", "02:30 CET, the repeat"),
    .init("0 * * * *", "Europe/Berlin", after: "2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z", "hourly: both 02:00s"),
    .init("0 * * * *", "Europe/Berlin", after: "2026-10-25T01:00:00Z", "2026-10-25T03:00:00+01:00", "hourly: then 03:00 CET"),
    // Fall back, New York: 01:00-01:59 happens twice on 2026-11-01 (05:00-05:59 and 06:00-06:59 UTC).
    .init("30 1 * * *", "America/New_York", after: "2026-10-31T12:00:00-04:00", "2026-11-01T05:30:00Z", "01:30 EDT"),
    .init("30 1 * * *", "America/New_York", after: "2026-11-01T05:30:00Z", "2026-11-02T01:30:00-05:00", "not again at 01:30 EST"),
    .init("*/30 * * * *", "America/New_York", after: "2026-11-01T05:30:00Z", "2026-11-01T06:00:00Z", "01:00 EST, the repeat"),
    .init("15 * * * *", "America/New_York", after: "2026-11-01T05:15:00Z", "2026-11-01T06:15:00Z", "hour * : 01:15 twice"),
    // Lord Howe: 30-minute shifts.
    .init("15 2 * * *", "Australia/Lord_Howe", after: "2026-10-03T12:00:00Z", "2026-10-03T15:30:00Z", "02:15 in a 30-minute gap"),
    .init("45 1 * * *", "Australia/Lord_Howe", after: "2026-04-04T14:00:00Z", "2026-04-04T14:45:00Z", "01:45 first time (+11:00)"),
    .init("45 1 * * *", "Australia/Lord_Howe", after: "2026-04-04T14:45:00Z", "2026-04-06T01:45:00+10:30", "01:45 not again (+10:30)"),
    .init("45 * * * *", "Australia/Lord_Howe", after: "2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z", "hour * : 01:45 again"),
    // The last possible day.
    .init("0 0 31 2,3 *", after: "2026-01-01T00:00:00Z", "2026-03-31T00:00:00Z", "no February 31, but March 31"),
    .init("0 0 31 * *", after: "2026-02-01T00:00:00Z", "2026-03-31T00:00:00Z", "the 31st skips February"),
]

@Suite struct CronScheduleTests {
    @Test(arguments: nextDateCases)
    func nextDate(_ c: NextDateCase) throws {
        let schedule = try CronSchedule(c.expression)
        let found = schedule.nextDate(after: instant(c.after), in: zone(c.zone))
        #expect(utc(found) == utc(c.expected.map(instant)), "\(c.note)")
    }

    @Test func thereAreEnoughCases() {
        #expect(nextDateCases.count >= 45)
    }

    @Test func expressionIsKeptAsWritten() throws {
        #expect(try CronSchedule("@daily").description == "@daily")
        #expect(try CronSchedule(" */5  9-17 * * mon-fri ").expression == " */5  9-17 * * mon-fri ")
    }

    @Test func leapDayAndEitherDaySearchesAreFast() throws {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<100 {
                _ = try CronSchedule("0 0 29 2 *").nextDate(after: instant("2096-03-01T00:00:00Z"), in: zone("Europe/Berlin"))
                _ = try CronSchedule("0 0 30 2 MON").nextDate(after: instant("2026-01-01T00:00:00Z"), in: zone("Europe/Berlin"))
            }
        }
        #expect(elapsed < .seconds(2))
    }

    /// An expression that can never fire is refused when it is read, naming it and why.
    @Test(arguments: ["0 0 31 2 *", "0 0 30 2 *", "0 0 31 4 *", "0 0 31 2,4,6,9,11 *", "0 12 30-31 FEB *"])
    func anExpressionThatNeverFiresIsAnError(_ expression: String) {
        #expect {
            try CronSchedule(expression)
        } throws: { error in
            let text = "\(error)"
            return text.contains("\"\(expression)\"") && text.contains("can never fire")
        }
    }

    @Test func lastDateFindsTheLatestInstantInARange() throws {
        let daily = try CronSchedule("@daily")
        let utc = zone("UTC")
        #expect(daily.lastDate(after: instant("2026-05-01T00:00:00Z"), through: instant("2026-05-04T08:00:00Z"), in: utc)
                == instant("2026-05-04T00:00:00Z"))
        #expect(daily.lastDate(after: instant("2026-05-04T00:00:00Z"), through: instant("2026-05-04T23:59:59Z"), in: utc) == nil)
        let minutely = try CronSchedule("* * * * *")
        #expect(minutely.lastDate(after: instant("2025-01-01T00:00:00Z"), through: instant("2026-05-04T08:00:30Z"), in: utc)
                == instant("2026-05-04T08:00:00Z"))
    }
}

/// An invalid expression, the field the error must name (nil: the whole expression), and a
/// fragment of the message.
struct InvalidCase: Sendable, CustomTestStringConvertible {
    var expression: String
    var field: CronField?
    var fragment: String

    init(_ expression: String, _ field: CronField?, _ fragment: String) {
        self.expression = expression
        self.field = field
        self.fragment = fragment
    }

    var testDescription: String { "\"\(expression)\"" }
}

@Suite struct ScheduleErrorTests {
    @Test(arguments: [
        InvalidCase("61 * * * *", .minute, "61 is out of range 0–59"),
        InvalidCase("* 24 * * *", .hour, "24 is out of range 0–23"),
        InvalidCase("* * 0 * *", .dayOfMonth, "0 is out of range 1–31"),
        InvalidCase("* * 32 * *", .dayOfMonth, "32 is out of range 1–31"),
        InvalidCase("* * * 13 *", .month, "13 is out of range 1–12"),
        InvalidCase("* * * * 8", .dayOfWeek, "8 is out of range 0–7"),
        InvalidCase("5-1 * * * *", .minute, "range 5-1 is reversed"),
        InvalidCase("* * * * SAT-SUN", .dayOfWeek, "range SAT-SUN is reversed; write the smaller value first (Sunday is also 7: 6-7)"),
        InvalidCase("*/0 * * * *", .minute, "step must be at least 1"),
        InvalidCase("* */x * * *", .hour, "step \"x\" is not a number"),
        InvalidCase("* * * FOO *", .month, "unknown month name \"FOO\""),
        InvalidCase("* * * * FUNDAY", .dayOfWeek, "unknown weekday name \"FUNDAY\""),
        InvalidCase("MON * * * *", .minute, "\"MON\" is not a number"),
        InvalidCase("1,,2 * * * *", .minute, "empty item"),
        InvalidCase("* 1, * * *", .hour, "empty item"),
        InvalidCase("-5 * * * *", .minute, "a value is missing"),
        InvalidCase("1-2-3 * * * *", .minute, "is not a value or a range"),
        InvalidCase("1/2/3 * * * *", .minute, "more than one \"/\""),
        InvalidCase("* * * *", nil, "expected 5 fields"),
        InvalidCase("* * * * * *", nil, "found 6"),
        InvalidCase("", nil, "found 0"),
        InvalidCase("@sometimes", nil, "unknown macro"),
        InvalidCase("@reboot", nil, "unknown macro"),
    ])
    func invalidExpressionNamesTheField(_ c: InvalidCase) {
        #expect {
            try CronSchedule(c.expression)
        } throws: { error in
            guard let error = error as? ScheduleError else { return false }
            return error.field == c.field && error.message.contains(c.fragment)
                && error.description.hasPrefix(c.field.map { "\($0) field" } ?? "cron expression")
        }
    }

    @Test func descriptionIsOneActionableLine() {
        #expect(throws: ScheduleError(field: .minute, text: "61", message: "61 is out of range 0–59")) {
            try CronSchedule("61 0 * * *")
        }
        let error = ScheduleError(field: .minute, text: "61", message: "61 is out of range 0–59")
        #expect(error.description == "minute field \"61\": 61 is out of range 0–59")
    }
}
