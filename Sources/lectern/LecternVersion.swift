/// The version `lectern --version` prints: the release, counted in the issues the project has
/// resolved (0.N after issue N), bumped by hand with each release.
enum LecternVersion {
    static let number = "0.27.0"
    static var description: String { "lectern \(number)" }
}
