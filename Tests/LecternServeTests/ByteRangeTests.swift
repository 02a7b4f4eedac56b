import Testing
@testable import LecternServe

@Suite struct ByteRangeTests {
    @Test func servesOneRangeAndTheWholeFileForSeveral() {
        #expect(ByteRange.answer("bytes=0-99", size: 1000) == .part(0...99))
        #expect(ByteRange.answer("bytes=900-", size: 1000) == .part(900...999))
        #expect(ByteRange.answer("bytes=-100", size: 1000) == .part(900...999))
        #expect(ByteRange.answer("bytes=990-2000", size: 1000) == .part(990...999))
        #expect(ByteRange.answer("bytes=0-1,5-9", size: 1000) == .whole)
        #expect(ByteRange.answer(nil, size: 1000) == .whole)
        #expect(ByteRange.answer("items=0-1", size: 1000) == .whole)
        #expect(ByteRange.answer("bytes=9-1", size: 1000) == .whole)
    }

    @Test func refusesARangePastTheEnd() {
        #expect(ByteRange.answer("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(ByteRange.answer("bytes=-0", size: 1000) == .unsatisfiable)
        #expect(ByteRange.answer("bytes=0-", size: 0) == .unsatisfiable)
    }
}
