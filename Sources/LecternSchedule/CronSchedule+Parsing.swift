import Foundation

extension CronSchedule {
    /// Parses a five-field cron expression or a macro such as `@daily`.
    ///
    /// - parameters:
    ///     - expression: e.g. `*/15 9-17 * * MON-FRI`; surrounding whitespace is ignored and
    ///       fields are separated by spaces or tabs.
    /// - throws: A ``ScheduleError`` naming the field at fault: a wrong field count, a value out
    ///   of range, a reversed range (`5-1`), a step of 0, an unknown name, an empty list item;
    ///   or naming the expression when it can never fire (`0 0 31 2 *`: no February 31).
    public init(_ expression: String) throws(ScheduleError) {
        let trimmed = expression.trimmingCharacters(in: .whitespacesAndNewlines)
        var text = trimmed
        if trimmed.hasPrefix("@") {
            guard let expanded = Self.macros[trimmed.lowercased()] else {
                let known = "@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly"
                throw ScheduleError(field: nil, text: expression, message: "unknown macro; expected one of \(known)")
            }
            text = expanded
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard parts.count == CronField.allCases.count else {
            throw ScheduleError(field: nil, text: expression, message:
                "expected 5 fields (minute hour day-of-month month day-of-week) or a macro such as @daily, found \(parts.count)")
        }
        var fields: [CronField: (values: ValueSet, isStar: Bool)] = [:]
        for (field, part) in zip(CronField.allCases, parts) {
            fields[field] = (try Self.parse(part, as: field), part.hasPrefix("*"))
        }
        self.init(expression: expression, fields: fields)
        guard isSatisfiable else {
            throw ScheduleError(field: nil, text: expression, message:
                "can never fire: no month in \"\(parts[3])\" has a day in \"\(parts[2])\"; choose days that exist in those months")
        }
    }

    static let macros: [String: String] = [
        "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
        "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
    ]

    /// Parses one field: a comma list of `*`, `N`, `N-M`, each optionally followed by `/STEP`.
    static func parse(_ text: String, as field: CronField) throws(ScheduleError) -> ValueSet {
        func fail(_ message: String) -> ScheduleError {
            ScheduleError(field: field, text: text, message: message)
        }
        var set = ValueSet()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !item.isEmpty else { throw fail("empty item in the list") }
            let pieces = item.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw fail("\"\(item)\" has more than one \"/\"") }
            var step = 1
            if pieces.count == 2 {
                guard !pieces[1].isEmpty, pieces[1].allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    throw fail("step \"\(pieces[1])\" is not a number")
                }
                let n = Int(pieces[1]) ?? Int.max  // a huge step keeps just the first value
                guard n >= 1 else { throw fail("step must be at least 1, found \(n)") }
                step = n
            }
            let base = pieces[0]
            let range: ClosedRange<Int>
            if base == "*" {
                range = field.all
            } else {
                let ends = base.split(separator: "-", omittingEmptySubsequences: false)
                guard ends.count <= 2 else { throw fail("\"\(base)\" is not a value or a range") }
                let low = try value(ends[0], field: field, fieldText: text)
                if ends.count == 2 {
                    let high = try value(ends[1], field: field, fieldText: text)
                    guard low <= high else {
                        var message = "range \(base) is reversed; write the smaller value first"
                        if field == .dayOfWeek && high == 0 { message += " (Sunday is also 7: \(low)-7)" }
                        throw fail(message)
                    }
                    range = low...high
                } else {
                    range = pieces.count == 2 ? low...max(low, field.all.upperBound) : low...low
                }
            }
            for v in stride(from: range.lowerBound, through: range.upperBound, by: step) {
                set.insert(v)
            }
        }
        if field == .dayOfWeek && set.contains(7) {
            set.remove(7)
            set.insert(0)
        }
        return set
    }

    /// One number or (for month and day-of-week) three-letter name, checked against the field's bounds.
    static func value(_ text: Substring, field: CronField, fieldText: String) throws(ScheduleError) -> Int {
        func fail(_ message: String) -> ScheduleError {
            ScheduleError(field: field, text: fieldText, message: message)
        }
        let bounds = field.bounds
        let range = "\(bounds.lowerBound)–\(bounds.upperBound)"
        guard !text.isEmpty else { throw fail("a value is missing; expected a number \(range)") }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard text.count <= 6, let n = Int(text), bounds.contains(n) else {
                throw fail("\(text) is out of range \(range)")
            }
            return n
        }
        let names = field.names
        guard !names.isEmpty else { throw fail("\"\(text)\" is not a number; expected \(range)") }
        guard let index = names.firstIndex(of: text.uppercased()) else {
            throw fail("unknown \(field == .month ? "month" : "weekday") name \"\(text)\"; expected \(names.first!)–\(names.last!) or \(range)")
        }
        return bounds.lowerBound + index
    }
}
