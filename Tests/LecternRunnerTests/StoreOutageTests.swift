import Foundation
import Logging
import Testing
import LecternTestSupport
import LecternStore
@testable import LecternRunner

/// A run waiting for its chunks rides out a store that does not answer, and fails with the
/// store's error once the outage outlasts its patience (#22).
@Suite(.onTestThreads) struct StoreOutageTests {
    static let down = StoreError("cannot read the job store postgres://db/jobs: it did not answer within 5 s (the address's timeout)")

    @Test func anOutageShorterThanThePatienceIsWaitedOut() async throws {
        var outage = StoreOutage(storeName: "postgres://db/jobs", patience: 30, control: RunControl(), logger: Logger(label: "test"))
        var calls = 0
        let value = try await outage.run { () throws -> Int in
            calls += 1
            if calls < 3 { throw Self.down }
            return 42
        }
        #expect(value == 42 && calls == 3)
    }

    @Test func anOutageLongerThanThePatienceFailsTheRunWithTheStoresError() async throws {
        var outage = StoreOutage(storeName: "postgres://db/jobs", patience: 0.3, control: RunControl(), logger: Logger(label: "test"))
        let error = try await #require(throws: RunError.self) { try await outage.run { () throws -> Int in throw Self.down } }
        #expect("\(error)".contains("the job store postgres://db/jobs has not answered for") && "\(error)".contains("did not answer within 5 s"),
                "\(error)")
    }

    @Test func otherErrorsAndACancelledRunAreNotWaitedOut() async throws {
        var outage = StoreOutage(storeName: "s", patience: 30, control: RunControl(), logger: Logger(label: "test"))
        var calls = 0
        await #expect(throws: RunError.self) { try await outage.run { () throws -> Int in calls += 1; throw RunError("a damaged chunk") } }
        #expect(calls == 1)
        let control = RunControl()
        control.cancel("SIGTERM")
        var cancelled = StoreOutage(storeName: "s", patience: 30, control: control, logger: Logger(label: "test"))
        let started = Date()
        await #expect(throws: RunError.self) { try await cancelled.run { () throws -> Int in throw Self.down } }
        #expect(Date().timeIntervalSince(started) < 1, "a cancelled run stops at once")
    }
}
