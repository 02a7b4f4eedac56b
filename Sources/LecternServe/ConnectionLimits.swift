import Synchronization

/// How many connections `lectern serve` holds open at once: at most `total`, and at most
/// `perClient` from one client address, so that one client cannot take the connections (and the
/// open files) every other client needs. Shared by every connection of a server.
final class ConnectionLimits: Sendable {
    private struct State {
        var total = 0
        var byClient: [String: Int] = [:]
    }

    let total: Int
    let perClient: Int
    private let state = Mutex(State())

    init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    /// Counts a new connection from `client` if both limits allow it.
    ///
    /// - returns: true if the connection is admitted (then ``close(_:)`` must follow when it
    ///   closes); false if it is over a limit.
    func open(_ client: String) -> Bool {
        state.withLock { state in
            let fromClient = state.byClient[client, default: 0]
            guard state.total < total, fromClient < perClient else { return false }
            state.total += 1
            state.byClient[client] = fromClient + 1
            return true
        }
    }

    /// Forgets an admitted connection from `client` that closed.
    func close(_ client: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.byClient[client, default: 1] - 1
            state.byClient[client] = left > 0 ? left : nil
        }
    }

    /// The connections open now, in total.
    var count: Int { state.withLock { $0.total } }
}
