import Testing
@testable import LecternRunner

/// Which route renders a run's missing chunks: this host's pool, this process, or the store's queue.
struct RenderRouteTests {
    @Test func withoutASharedChunkStoreTheLocalPoolRenders() {
        #expect(RenderRoute(sharesChunks: false, workers: nil, processorCount: 8) == .pool(workers: nil))
        #expect(RenderRoute(sharesChunks: false, workers: 3, processorCount: 8) == .pool(workers: 3))
    }

    @Test func aRunnerAskedToRenderInProcessDoesSoUnlessChunksAreShared() {
        #expect(RenderRoute(sharesChunks: false, inProcess: true, workers: 3, processorCount: 8) == .inProcess)
        #expect(RenderRoute(sharesChunks: true, inProcess: true, workers: nil, processorCount: 8) == .queue(localWorkers: 8))
    }

    @Test func withASharedChunkStoreTheQueueRendersWithOneLocalWorkerPerCoreByDefault() {
        #expect(RenderRoute(sharesChunks: true, workers: nil, processorCount: 8) == .queue(localWorkers: 8))
        #expect(RenderRoute(sharesChunks: true, workers: nil, processorCount: 2) == .queue(localWorkers: 2))
    }

    @Test func withASharedChunkStoreTheWorkerCountAskedForWinsEvenZero() {
        #expect(RenderRoute(sharesChunks: true, workers: 3, processorCount: 8) == .queue(localWorkers: 3))
        // `--workers 0`: every chunk is left to `lectern worker`s on other hosts.
        #expect(RenderRoute(sharesChunks: true, workers: 0, processorCount: 8) == .queue(localWorkers: 0))
    }

    @Test func theRouteSaysWhyItWasTaken() {
        #expect(RenderRoute.pool(workers: nil).description.contains("no shared chunk store"))
        #expect(RenderRoute.queue(localWorkers: 1).description.contains("1 local worker)"))
        #expect(RenderRoute.queue(localWorkers: 0).description.contains("shared between hosts"))
        #expect(RenderRoute.inProcess.description.contains("in process"))
    }
}
