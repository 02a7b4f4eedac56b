/// What renders a run's chunks on this host and hands each result to the run as it finishes:
/// worker processes (``WorkerPool``) or this process itself (``InProcessRenderer``).
protocol LocalChunkRendering: ChunkRendering {
    /// Renders every request; `onResult` is called once per chunk, never concurrently, in the
    /// order chunks finish.
    ///
    /// - throws: ``RunError`` when a chunk cannot be rendered; the first error thrown by `onResult`.
    func run(_ requests: [ChunkRequest], onResult: (ChunkResult) async throws -> Void) async throws
}
