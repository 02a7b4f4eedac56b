import Foundation

/// Why the scheduler starts a run, for logs and `lectern status`.
public enum RunReason: Sendable, Hashable {
    /// The scheduled instant has come (within the catch-up grace).
    case due(Date)
    /// Scheduled instants were missed (the daemon was down); one run serves them all.
    /// The range runs from the earliest to the latest missed instant.
    case catchUp(missed: ClosedRange<Date>)
    /// A retry after failures; `attempt` is 1 for the first retry, 2 for the second, …
    case retry(attempt: Int)
    /// A watched file changed and has since been quiet for the debounce interval.
    case changed
    /// The run `run` stopped before it ended (its daemon died or was stopped); this run
    /// continues it, with its trigger, from its finished chunks.
    case resume(run: Int64)
}
