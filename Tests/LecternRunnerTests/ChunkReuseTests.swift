import Testing
@testable import LecternRunner

/// Which chunks a run renders and which it reuses from the cache.
struct ChunkReuseTests {
    @Test func aFirstRunRendersEveryChunk() {
        let work = ChunkReuse(keys: ["a", "b", "c"], cached: [])
        #expect(work.reused == [])
        #expect(work.rendered == [0, 1, 2])
        #expect(work.positions == ["a": [0], "b": [1], "c": [2]])
    }

    @Test func cachedChunksAreReusedAndOnlyTheOthersRendered() {
        // A resumed run: chunks 0 and 2 were recorded before the interruption.
        let work = ChunkReuse(keys: ["a", "b", "c", "d"], cached: [2, 0])
        #expect(work.reused == [0, 2])
        #expect(work.rendered == [1, 3])
        #expect(work.positions == ["b": [1], "d": [3]])
    }

    @Test func aFullyCachedBookRendersNothing() {
        let work = ChunkReuse(keys: ["a", "b"], cached: [0, 1])
        #expect(work.reused == [0, 1])
        #expect(work.rendered.isEmpty)
        #expect(work.positions.isEmpty)
    }

    @Test func aForcedRunReusesNothing() {
        // `--force` plans with no cached chunks, whatever the cache holds.
        let keys = ["a", "b", "c"]
        #expect(ChunkReuse(keys: keys, cached: []).rendered == [0, 1, 2])
        #expect(ChunkReuse(keys: keys, cached: [0, 1, 2]).rendered == [])
    }

    @Test func aRepeatedPassageIsRenderedOnceAndPlacedEverywhere() {
        let work = ChunkReuse(keys: ["a", "x", "b", "x", "x"], cached: [])
        #expect(work.rendered == [0, 1, 2])
        #expect(work.positions["x"] == [1, 3, 4])
    }

    @Test func aRepeatedPassageCachedAtOnePlaceIsRenderedForTheOthersFromTheirFirst() {
        // Position 1 is cached; 3 and 4 share its key but are not, so 3 renders for both.
        let work = ChunkReuse(keys: ["a", "x", "b", "x", "x"], cached: [0, 1, 2])
        #expect(work.reused == [0, 1, 2])
        #expect(work.rendered == [3])
        #expect(work.positions == ["x": [3, 4]])
    }
}
