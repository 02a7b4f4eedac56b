#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's limit of open files (`RLIMIT_NOFILE`): every connection holds one, and so do
/// the runs' documents, audio files and stores.
enum OpenFileLimit {
    /// Raises the soft limit of open files to the hard limit, and returns the soft limit in force
    /// afterwards (unchanged if raising fails).
    ///
    /// The corresponding C functions are `getrlimit` and `setrlimit`.
    static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones (Swift cannot import the macro).
        return limit.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(clamping: limit.rlim_cur)
    }

    /// The connections a server may hold with `files` open files at most: half of them, so
    /// that the rest stay for the runs, the stores and the logs, and at most 10,000.
    static func connections(for files: Int) -> Int {
        max(16, min(10_000, files / 2))
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
