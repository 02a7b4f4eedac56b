import Testing

/// Runs each test of a suite on ``TestThreads`` (its task and every child task), so that tests
/// blocked elsewhere in the process cannot hold up its async work. A task the test starts with
/// `Task {}` does not inherit that: it names the executor (`Task(executorPreference:
/// TestThreads.shared)`).
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OnTestThreads? { testCase == nil ? nil : self }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    /// Each test on the test process's own threads (``TestThreads``).
    public static var onTestThreads: Self { OnTestThreads() }
}
