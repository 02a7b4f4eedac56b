import Foundation
import Synchronization
import Testing
import LecternTestSupport
import LecternStore

/// The lock a backend holds around each transaction on its connection: one holder at a time, in
/// the order callers came, and a wait that gives up at its deadline.
@Suite(.onTestThreads) struct AsyncGateTests {
    /// Waits until `count` callers wait for `gate` (the state the test needs, looked at, not a guess at a time).
    static func untilWaiting(_ gate: AsyncGate, _ count: Int) async {
        while await gate.waiting < count { await Task.yield() }
    }

    @Test func waitersEnterOneAtATimeInTheOrderTheyCame() async throws {
        let gate = AsyncGate()
        #expect(await gate.enter())
        let seen = Seen()
        var tasks: [Task<Void, Never>] = []
        for i in 0..<5 {
            tasks.append(Task(executorPreference: TestThreads.shared) {
                await gate.holding {
                    seen.enter(i)
                    await Task.yield()
                    seen.leave()
                }
            })
            await Self.untilWaiting(gate, i + 1)
        }
        await gate.leave()
        for task in tasks { await task.value }
        #expect(seen.order == [0, 1, 2, 3, 4])
        #expect(seen.most == 1, "two callers held the gate at once")
        #expect(await gate.enter(before: Date()), "the gate is free again")
    }

    /// Who held the gate, in order, and how many at most at once.
    final class Seen: Sendable {
        private let state = Mutex((order: [Int](), inside: 0, most: 0))
        func enter(_ i: Int) {
            state.withLock { state in
                state.order.append(i)
                state.inside += 1
                state.most = max(state.most, state.inside)
            }
        }
        func leave() { state.withLock { $0.inside -= 1 } }
        var order: [Int] { state.withLock { $0.order } }
        var most: Int { state.withLock { $0.most } }
    }

    @Test func aWaitPastItsDeadlineGivesUpAndLeavesTheGateToTheNext() async throws {
        let gate = AsyncGate()
        #expect(await gate.enter())
        let started = Date()
        let late = await gate.holding(before: Date().addingTimeInterval(0.2)) { true }
        #expect(late == nil)
        #expect(Date().timeIntervalSince(started) >= 0.19)
        #expect(await gate.waiting == 0, "the caller that gave up no longer waits")
        let next = Task(executorPreference: TestThreads.shared) { await gate.holding(before: Date().addingTimeInterval(30)) { "entered" } }
        await Self.untilWaiting(gate, 1)
        await gate.leave()
        #expect(await next.value == "entered")
    }
}
