import Foundation
import Testing
@testable import LecternCore

/// User-written regular expressions stop at their time limit, and stay stopped.
struct UserRegexTests {
    @Test func anOrdinaryPatternMatchesAsNSRegularExpressionDoes() throws {
        let regex = try UserRegex(#"\bDr\.(?= [A-Z])"#)
        let text = "Dr. Watson met Dr. Jekyll, not dr. who."
        #expect(try regex.matches(in: text).map(\.range.location) == [0, 15])
        #expect(try regex.firstMatch(in: text)?.range.length == 3)
        #expect(try !regex.matches("no doctor here"))
        #expect(regex.timeout == nil)
    }

    @Test func exponentialBacktrackingStopsAtTheLimitAndThenAtOnce() throws {
        let regex = try UserRegex("(a+)+$", timeLimit: 0.3)
        let text = String(repeating: "a", count: 200) + "!"
        let started = Date()
        #expect(throws: RegexTimeout.self) { try regex.matches(text) }
        let first = Date().timeIntervalSince(started)
        #expect(first >= 0.3 && first < 3, "stopped after \(first) s")
        let again = Date()
        let error = try #require(throws: RegexTimeout.self) { try regex.matches("aaa") }
        #expect(Date().timeIntervalSince(again) < 0.1, "a timed-out pattern fails at once")
        #expect(error.description.contains("/(a+)+$/ took more than 0.3 s to match one text"))
        #expect(regex.timeout != nil)
    }

    @Test func slowMatchesStopAtTheWholeBudget() throws {
        // The per-call limit is generous; what is left of the whole budget caps every call.
        let regex = try UserRegex("^([A-Za-z]+ ?)+:$", timeLimit: 10, budget: RegexBudget(seconds: 0.5))
        let line = "Alice was beginning to get very tired of sitting by her sister"
        let started = Date()
        let error = try #require(throws: RegexTimeout.self) { for _ in 0..<10_000 { _ = try regex.matches(line) } }
        #expect(error.overall, "\(error)")
        #expect(Date().timeIntervalSince(started) < 12)
    }
}

/// Every user-written expression of a book shares one budget: thirty slow patterns cost one
/// budget, not thirty.
struct RegexBudgetTests {
    @Test func slowPatternsShareOneBudget() throws {
        let budget = RegexBudget(seconds: 1, secondsPerMillion: 0)
        let patterns = try (0..<30).map { i in try UserRegex("^(a+)+\(i)$", budget: budget) }
        let text = String(repeating: "a", count: 40)
        let started = Date()
        var timeouts: [RegexTimeout] = []
        for pattern in patterns {
            do { _ = try pattern.matches(text) } catch { timeouts.append(error) }
        }
        let elapsed = Date().timeIntervalSince(started)
        // (Once, on a loaded machine, one match of the thirty ended on its own before its limit.)
        #expect(timeouts.count >= 28, "\(timeouts.count) of 30 patterns stopped")
        #expect(elapsed < 3, "30 slow patterns took \(elapsed) s with a budget of 1 s")
        #expect(timeouts.last?.overall == true, "\(String(describing: timeouts.last))")
        #expect(budget.spentBy != nil)
    }

    @Test func aPatternOfItsOwnKeepsItsOwnBudget() throws {
        let a = try UserRegex("^(a+)+$", timeLimit: 0.2)
        let b = try UserRegex("^(a+)+$", timeLimit: 0.2)
        #expect(throws: RegexTimeout.self) { try a.matches(String(repeating: "a", count: 40) + "!") }
        #expect(try b.matches("aaa"))
    }
}
