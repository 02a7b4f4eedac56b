/// Which of a book's chunks a run reuses and which it renders: a chunk whose stream is in the
/// cache is placed as it is; of the others, the first of each key is rendered and its stream
/// placed at every position with that key (a repeated passage is rendered once).
struct ChunkReuse: Equatable {
    /// Positions whose streams are cached, in book order.
    let reused: [Int]
    /// Positions sent to a worker: one per key that is not cached, the first with it.
    let rendered: [Int]
    /// Every position a rendered key's stream is placed at, by key.
    let positions: [String: [Int]]

    /// - parameters:
    ///     - keys: Every chunk's key (``ChunkKey``), by position.
    ///     - cached: The positions whose streams the cache holds (none for a forced run).
    init(keys: [String], cached: Set<Int>) {
        var positions: [String: [Int]] = [:]
        for (index, key) in keys.enumerated() where !cached.contains(index) { positions[key, default: []].append(index) }
        self.positions = positions
        reused = cached.sorted()
        rendered = keys.indices.filter { !cached.contains($0) && positions[keys[$0]]?.first == $0 }
    }
}
