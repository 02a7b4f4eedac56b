/// What started a run: the job's cron schedule or a change in a file it watches.
///
/// The raw values (`schedule`, `watch`) are what the store records.
public enum Trigger: String, Sendable, Hashable, Codable, CaseIterable {
    case schedule
    case watch
}
