/// What started a run: a person (`lectern run`), the service's API, the job's cron schedule or
/// a change in a file it watches.
///
/// The raw values (`manual`, `api`, `schedule`, `watch`) are what the store records and what
/// `lectern status` and the API show. The scheduler only ever starts `schedule` and `watch` runs.
public enum Trigger: String, Sendable, Hashable, Codable, CaseIterable {
    case manual
    case api
    case schedule
    case watch

    /// Whether a daemon started the run (`schedule` or `watch`), so that a daemon resumes it
    /// when it was stopped before it ended.
    public var isDaemon: Bool {
        switch self {
        case .schedule, .watch: true
        case .manual, .api: false
        }
    }
}
