import Foundation

/// A small book of four Markdown sources, one chapter each, and its manifest `harbour.yml`: what
/// the incremental tests edit, chapter by chapter.
public enum HarbourBook {
    public static let chapters = [
        ("The Harbour", ["The boats came in before the storm, low in the water and loud with gulls.",
                         "Old Marta counted them from the sea wall, as she had every evening for forty years.",
                         "When the last one tied up she went home and lit the lamp."]),
        ("The Lighthouse", ["Nobody had kept the light since the war, yet on foggy nights it still turned.",
                            "The children said a keeper lived there who never came down the stairs.",
                            "Marta knew better, because she carried the oil up herself."]),
        ("The Storm", ["At midnight the wind found every loose shutter in the village.",
                       "Marta climbed the tower with a lantern and a tin of oil, one step at a time.",
                       "Far out, a single boat was still trying to find the harbour."]),
        ("The Morning", ["By dawn the sea was flat and grey and very quiet.",
                         "The last boat lay safe against the wall, its crew asleep on the nets.",
                         "Marta walked home slowly and did not mention the light to anyone."]),
    ]

    /// A chapter's source: its title as a heading, then its paragraphs.
    public static func markdown(_ title: String, _ paragraphs: [String]) -> String {
        "# \(title)\n\n" + paragraphs.joined(separator: "\n\n") + "\n"
    }

    /// Writes the book's sources `ch1.md`… into `folder` (those not there yet) and a manifest
    /// naming `order` of them, with optional extra YAML; returns the manifest.
    @discardableResult
    public static func write(in folder: URL, order: [Int], extra: String = "") throws -> URL {
        for (i, chapter) in chapters.enumerated() {
            let file = folder.appendingPathComponent("ch\(i + 1).md")
            if !FileManager.default.fileExists(atPath: file.path) { try Data(markdown(chapter.0, chapter.1).utf8).write(to: file) }
        }
        let sources = order.map { "  - ch\($0).md" }.joined(separator: "\n")
        let manifest = folder.appendingPathComponent("harbour.yml")
        try Data("title: The Harbour Light\nsources:\n\(sources)\nvoice: { name: en-us, wpm: 220 }\n\(extra)".utf8).write(to: manifest)
        return manifest
    }
}
