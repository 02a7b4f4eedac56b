import Foundation

extension LoudnessLeveler {
    /// The buffers a thread gathers and levels its chunks in, kept from one chunk to the next:
    /// a worker renders chunk after chunk of about the same length, and buffers of a few
    /// megabytes made anew for each cost more in page faults and copies as they grow than the
    /// levelling itself. One per thread (``current``), at most the longest chunk's size.
    public final class Workspace {
        /// A chunk's samples as they are gathered (emptied, not freed, between chunks).
        public var samples: [Int16] = []
        var levelled: [Float] = []
        let weighted = KWeighted()

        public init() {}

        /// This thread's workspace.
        public static var current: Workspace {
            let key = "lectern.loudness-leveler.workspace"
            if let workspace = Thread.current.threadDictionary[key] as? Workspace { return workspace }
            let workspace = Workspace()
            Thread.current.threadDictionary[key] = workspace
            return workspace
        }

        /// `buffer` made `count` zeros long, keeping its storage.
        static func zeroed(_ buffer: inout [Float], count: Int) {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: repeatElement(0, count: count))
        }
    }
}
