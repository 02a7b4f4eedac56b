/// How URLs and e-mail addresses are read (the manifest's top-level `urls:`).
public enum URLReading: String, Sendable, CaseIterable {
    /// As their domain: `http://www.gutenberg.net/etext` → "gutenberg dot net", an e-mail address
    /// as its whole address ("someone at example dot org").
    case domain
    /// Not at all (silent, though still timed).
    case skip
    /// As written (espeak-ng's own reading: letter by letter, slashes and all).
    case read
}
