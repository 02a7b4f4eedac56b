/// Which route renders the chunks a run lacks, and why: with a chunk store every host reaches,
/// the store's chunk queue (any host's workers may take them, this host's among them); without
/// one, a pool of worker processes on this host, or this process itself when the runner was
/// asked to render in process (tests, embedding).
enum RenderRoute: Equatable, CustomStringConvertible {
    /// This host's worker pool of `workers` processes (nil: one per core).
    case pool(workers: Int?)
    /// This process, one chunk at a time (``InProcessRenderer``).
    case inProcess
    /// The store's chunk queue, with `localWorkers` worker slots on this host (0: none, every
    /// chunk left to `lectern worker`s elsewhere).
    case queue(localWorkers: Int)

    /// - parameters:
    ///     - sharesChunks: Whether the run has a chunk store every host reaches (its queue then
    ///       renders, in process or not).
    ///     - inProcess: Whether the runner renders in process (``JobRunner/rendersInProcess``).
    ///     - workers: The worker count asked for (`--workers`; nil: one per core).
    ///     - processorCount: This host's active cores.
    init(sharesChunks: Bool, inProcess: Bool = false, workers: Int?, processorCount: Int) {
        self = sharesChunks ? .queue(localWorkers: workers ?? processorCount) : inProcess ? .inProcess : .pool(workers: workers)
    }

    var description: String {
        switch self {
        case .pool(let workers):
            "this host's worker pool (\(workers.map { "\($0) workers" } ?? "one worker per core")): no shared chunk store"
        case .inProcess:
            "this process, one chunk at a time: the runner renders in process"
        case .queue(let local):
            "the store's chunk queue (\(local) local worker\(local == 1 ? "" : "s")): chunks are shared between hosts"
        }
    }
}
