/// What a scheduled job does about instants it missed while the daemon was not running.
///
/// The raw values are the manifest's words: `catchup: once` or `catchup: none`.
public enum CatchUp: String, Sendable, Hashable, Codable, CaseIterable {
    /// Run once for all missed instants (the default).
    case once
    /// Skip missed instants and wait for the next one. (Not named `none`, which reads as
    /// `Optional.none` wherever a `CatchUp?` is expected.)
    case skip = "none"
}
