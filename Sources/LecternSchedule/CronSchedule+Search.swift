import Foundation

extension CronSchedule {
    /// The first instant strictly after `date` at which the schedule fires in `timeZone`.
    ///
    /// The result is a whole wall-clock minute, except that a fixed-time job whose time falls
    /// in a spring-forward gap fires at the transition instant (see the type's discussion of
    /// daylight-saving time).
    ///
    /// - parameters:
    ///     - date: The instant to search after.
    ///     - timeZone: The zone whose wall clock the fields are read in.
    /// - returns: The instant, or nil only when no date can ever match (`0 0 30 2 *`).
    public func nextDate(after date: Date, in timeZone: TimeZone) -> Date? {
        let t = date.timeIntervalSince1970
        guard isSatisfiable, t.isFinite, abs(t) < 1e14 else { return nil }
        var offset = timeZone.secondsFromGMT(for: date)
        // The first whole wall-clock minute strictly after `date`.
        var lower = CivilTime.floorDiv(Int(t.rounded(.down)) + offset, 60) * 60 + 60
        if !isWildcard, let (transition, earlierOffset) = Self.lastTransition(atOrBefore: date, in: timeZone),
           earlierOffset > offset {
            // Just after a fall back: the repeated wall-clock times were already served.
            lower = max(lower, Self.ceilMinute(transition + earlierOffset))
        }
        var cursor = date
        // Two transitions a year; a satisfiable expression matches within 400 years.
        for _ in 0..<1000 {
            let transition = timeZone.nextDaylightSavingTimeTransition(after: cursor)
            let end = transition.map { Int($0.timeIntervalSince1970.rounded(.down)) }
            if let wall = nextWallTime(atOrAfter: lower, before: end.map { $0 + offset }) {
                return Date(timeIntervalSince1970: TimeInterval(wall - offset))
            }
            guard let transition, let end else { return nil }
            let newOffset = timeZone.secondsFromGMT(for: transition)
            if !isWildcard && newOffset > offset
                && nextWallTime(atOrAfter: Self.ceilMinute(end + offset), before: end + newOffset) != nil {
                return transition  // a fixed time in the skipped hour runs when the gap ends
            }
            lower = Self.ceilMinute(end + newOffset)
            if !isWildcard && newOffset < offset {
                lower = max(lower, Self.ceilMinute(end + offset))  // repeated times run only the first time
            }
            offset = newOffset
            cursor = transition
        }
        return nil
    }

    /// The latest instant in `(start, end]` at which the schedule fires, or nil when none does.
    ///
    /// Found by bisection over ``nextDate(after:in:)``, so a range of years costs a few dozen
    /// searches, not one per missed run.
    public func lastDate(after start: Date, through end: Date, in timeZone: TimeZone) -> Date? {
        guard let first = nextDate(after: start, in: timeZone), first <= end else { return nil }
        var best = first
        var high = end
        while high.timeIntervalSince(best) > 1 {
            let middle = best.addingTimeInterval(high.timeIntervalSince(best) / 2)
            if let found = nextDate(after: middle, in: timeZone), found <= end {
                best = found
            } else {
                high = middle
            }
        }
        while let found = nextDate(after: best, in: timeZone), found <= end {
            best = found
        }
        return best
    }

    /// The first wall-clock minute at or after `lower` (and before `upper`, if given) whose
    /// fields all match, in naive wall-clock seconds.
    func nextWallTime(atOrAfter lower: Int, before upper: Int?) -> Int? {
        var t = CivilTime(wallSeconds: lower)
        let lastYear = t.year + 400
        while t.year <= lastYear {
            if let upper, t.wallSeconds >= upper { return nil }
            guard months.contains(t.month) else {
                if let month = months.first(atLeast: t.month + 1), month <= 12 {
                    t = CivilTime(year: t.year, month: month, day: 1)
                } else {
                    t = CivilTime(year: t.year + 1, month: months.first(atLeast: 1)!, day: 1)
                }
                continue
            }
            guard t.day <= CivilTime.daysIn(month: t.month, year: t.year) else {
                t = t.month == 12 ? CivilTime(year: t.year + 1, month: 1, day: 1) : CivilTime(year: t.year, month: t.month + 1, day: 1)
                continue
            }
            guard matchesDay(t), let hour = hours.first(atLeast: t.hour), hour <= 23 else {
                t = CivilTime(year: t.year, month: t.month, day: t.day + 1)
                continue
            }
            if hour != t.hour {
                t.hour = hour
                t.minute = 0
            }
            guard let minute = minutes.first(atLeast: t.minute), minute <= 59 else {
                t.minute = 0
                t.hour += 1
                if t.hour == 24 { t = CivilTime(year: t.year, month: t.month, day: t.day + 1) }
                continue
            }
            t.minute = minute
            let wall = t.wallSeconds
            if let upper, wall >= upper { return nil }
            return wall
        }
        return nil
    }

    /// The latest offset change at or before `date` (looking back two days), with the offset in
    /// force just before it.
    static func lastTransition(atOrBefore date: Date, in timeZone: TimeZone) -> (instant: Int, earlierOffset: Int)? {
        var cursor = date.addingTimeInterval(-2 * 86_400)
        var found: (Int, Int)?
        while let transition = timeZone.nextDaylightSavingTimeTransition(after: cursor), transition <= date {
            found = (Int(transition.timeIntervalSince1970.rounded(.down)),
                     timeZone.secondsFromGMT(for: transition.addingTimeInterval(-1)))
            cursor = transition
        }
        return found
    }

    static func ceilMinute(_ seconds: Int) -> Int {
        -CivilTime.floorDiv(-seconds, 60) * 60
    }
}
