import Foundation

/// Runs a document's reading on a thread of its own with a large stack: the walks over a parsed
/// tree (``HTMLWalker``, ``HeadingDetector``, the EPUB marker) recurse once per level of nesting,
/// and a document may nest elements ``XMLTree/maxDepth`` deep, more than the 8 MB of a main
/// thread (or the less of a worker's) holds. Only the pages a walk touches use memory.
enum DeepStack {
    /// The stack reserved for the reading thread.
    static let size = 1 << 30

    /// Runs `body` on a thread with a ``size`` stack and waits for it; its result or error is returned.
    static func run<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let call = Call(body)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                call.run()
                done.signal()
            }
            thread.stackSize = size
            thread.start()
            done.wait()
            return try call.result!.get()
        }
    }

    /// The body and its result, handed between the caller and the thread; the caller waits for
    /// the thread, so they never use it at the same time.
    private final class Call<T>: @unchecked Sendable {
        private var body: (() throws -> T)?
        var result: Result<T, Error>?
        init(_ body: @escaping () throws -> T) { self.body = body }
        /// Runs the body once and lets go of it (it must not outlive the caller's wait).
        func run() {
            guard let body else { return }
            result = Result { try body() }
            self.body = nil
        }
    }
}
