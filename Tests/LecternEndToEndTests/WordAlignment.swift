import Foundation
import Testing

/// An independent forced aligner's verdict on a sidecar's word starts: CMU PocketSphinx (PyPI
/// `pocketsphinx`, its bundled en-us model), which `make test` installs into `.python/`, run by
/// `Tests/Scripts/word_alignment.py` on sentences drawn at random (a fixed seed).
struct WordAlignment: Decodable {
    /// Sentences aligned and compared, and those the aligner gave up on.
    let sentences: Int
    let alignmentFailed: Int
    /// Words compared, and how many of them the sidecar flags estimated.
    let words: Int
    let estimated: Int
    /// Word-start error, in milliseconds.
    let medianMs: Double
    let p90Ms: Double
    let p95Ms: Double
    let maxMs: Double
    /// The share of words whose start is within 50 ms.
    let within50: Double

    static let python = "/usr/bin/python3"
    static let folder = Tool.packageRoot.appendingPathComponent(".python")
    static let script = Tool.packageRoot.appendingPathComponent("Tests/Scripts/word_alignment.py")

    /// Why the aligner cannot run here, or nil.
    static let missing: String? = {
        guard let out = try? Tool.run(python, ["-c", "import pocketsphinx"], environment: ["PYTHONPATH": folder.path]),
              out.status == 0 else {
            return "needs PocketSphinx in .python/ (make test-python installs it from PyPI)"
        }
        return nil
    }()

    /// Aligns `sentences` sentences of the book whose sidecar is `sidecar` (its audio beside it).
    static func measure(_ sidecar: URL, sentences: Int = 60) throws -> WordAlignment {
        let out = try Tool.run(python, [script.path, sidecar.path, "--sentences", String(sentences), "--json"],
                               environment: ["PYTHONPATH": folder.path])
        try #require(out.status == 0, "word_alignment.py failed: \(out.stderr)")
        return try JSONDecoder().decode(WordAlignment.self, from: Data(out.stdout.utf8))
    }

    var summary: String {
        "\(sentences) sentences (\(alignmentFailed) the aligner gave up on), \(words) words (\(estimated) estimated): "
            + "median \(Int(medianMs)) ms, p90 \(Int(p90Ms)) ms, p95 \(Int(p95Ms)) ms, max \(Int(maxMs)) ms, "
            + "\(Int((within50 * 100).rounded())) % within 50 ms"
    }

    /// The bar for every engine (#26): word-start error p95 ≤ 60 ms and median ≤ 25 ms,
    /// over 60 sentences.
    func expectExact(_ engine: String, sourceLocation: SourceLocation = #_sourceLocation) {
        print("word alignment, \(engine): \(summary)")
        #expect(sentences == 60 && words >= 400, "\(engine): only \(sentences) sentences, \(words) words aligned", sourceLocation: sourceLocation)
        #expect(p95Ms <= 60 && medianMs <= 25, "\(engine): \(summary)", sourceLocation: sourceLocation)
    }
}
