import Foundation
import Testing
@testable import LecternServe

@Suite struct ConnectionLimitsTests {
    @Test func oneClientMayHoldItsShareAndTheTotalHoldsForAll() {
        let limits = ConnectionLimits(total: 5, perClient: 3)
        #expect((0..<3).allSatisfy { _ in limits.open("10.0.0.1") })
        #expect(!limits.open("10.0.0.1"), "a fourth from one address")
        #expect(limits.open("10.0.0.2") && limits.open("10.0.0.2"))
        #expect(!limits.open("10.0.0.3"), "a sixth in all")
        #expect(limits.count == 5)
        limits.close("10.0.0.1")
        #expect(limits.count == 4)
        #expect(limits.open("10.0.0.3"), "a place freed by one address is anyone's")
        #expect(!limits.open("10.0.0.1"))
        for _ in 0..<2 { limits.close("10.0.0.1") }
        #expect(limits.open("10.0.0.1"))
    }

    @Test func theTotalIsSizedFromTheOpenFileLimit() {
        #expect(OpenFileLimit.connections(for: 256) == 128)
        #expect(OpenFileLimit.connections(for: 20) == 16)
        #expect(OpenFileLimit.connections(for: 1 << 20) == 10_000)
        // Raising the soft limit to the hard one: afterwards the soft limit is the hard one.
        let raised = OpenFileLimit.raiseToHard()
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #expect(limit.rlim_cur == limit.rlim_max && raised == Int(clamping: limit.rlim_cur))
    }
}
