import Foundation
import Synchronization
import Testing
import LecternStore

/// The lock a backend holds around each transaction on its connection: one holder at a time, in
/// the order callers came, and a wait that gives up at its deadline.
@Suite struct AsyncGateTests {
    /// Waits until `count` callers wait for `gate` (the state the test needs, looked at, not a guess at a time).
    static func untilWaiting(_ gate: AsyncGate, _ count: Int) async {
        while await gate.waiting < count { await Task.yield() }
    }

    @Test func waitersEnterOneAtATimeInTheOrderTheyCame() async throws {
        let gate = AsyncGate()
        #expect(await gate.enter())
        let order = Mutex<[Int]>([])
        let inside = Mutex(0), most = Mutex(0)
        var tasks: [Task<Void, Never>] = []
        for i in 0..<5 {
            tasks.append(Task {
                await gate.holding {
                    let now = inside.withLock { $0 += 1; return $0 }
                    most.withLock { $0 = max($0, now) }
                    order.withLock { $0.append(i) }
                    await Task.yield()
                    inside.withLock { $0 -= 1 }
                }
            })
            await Self.untilWaiting(gate, i + 1)
        }
        await gate.leave()
        for task in tasks { await task.value }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(most.withLock { $0 } == 1, "two callers held the gate at once")
        #expect(await gate.enter(before: Date()), "the gate is free again")
    }

    @Test func aWaitPastItsDeadlineGivesUpAndLeavesTheGateToTheNext() async throws {
        let gate = AsyncGate()
        #expect(await gate.enter())
        let started = Date()
        let late = await gate.holding(before: Date().addingTimeInterval(0.2)) { true }
        #expect(late == nil)
        #expect(Date().timeIntervalSince(started) >= 0.19)
        #expect(await gate.waiting == 0, "the caller that gave up no longer waits")
        let next = Task { await gate.holding(before: Date().addingTimeInterval(30)) { "entered" } }
        await Self.untilWaiting(gate, 1)
        await gate.leave()
        #expect(await next.value == "entered")
    }
}
