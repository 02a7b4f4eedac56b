/// A problem with a manifest or configuration file, located by file, line and key.
///
/// The description is one line a user can act on:
/// `Jobs/alice.yml:12: voice.rate: expected a number from 0 to 1, found "fast"`.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The 1-based line, when the problem is at a place in the file.
    public var line: Int?
    /// The dotted key path, e.g. `voice.rate` or `sources[2].path`.
    public var key: String?
    public var message: String

    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var s = UserText.escapingControls(file)
        if let line { s += ":\(line)" }
        s += ": "
        if let key { s += "\(UserText.excerpt(key)): " }
        return s + message
    }
}
