/// The brackets that stand for a picture: `[Illustration]`, `[Illustration: caption]`, `[illustration]`,
/// `[Figure 07]`, `[Fig. 3]`, `[Plate IV]`, `[Image: …]`, `[Picture: …]`.
enum IllustrationMark {
    static let pattern = LinePattern(#"^\[(illustration|figure|fig\.|plate|image|picture)\b"#, caseInsensitive: true)

    /// Whether `text` (trimmed) starts with such a bracket.
    static func opens(_ text: String) -> Bool {
        guard text.first == "[", let second = text.dropFirst().first, "IiFfPp".contains(second) else { return false }
        return pattern.matches(text)
    }
}
