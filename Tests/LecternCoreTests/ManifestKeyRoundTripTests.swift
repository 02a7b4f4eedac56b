import Foundation
import Testing
@testable import LecternCore

/// Every key round-trips from its one declaration in ``ManifestSchema``: declared → parsed (its
/// example lands in the layer and merges; a value just outside its range is refused naming
/// file:line:key and the range the documentation shows) → documented (the README's reference and
/// lectern-manifest(5) show its range or choices).
@Suite struct ManifestKeyRoundTripTests {
    /// The manifest keys declared with a typed range.
    static let rangedKeys = ManifestSchema.keys.filter { $0.values?.bounds != nil && !$0.onlyInDefaults }.map(\.path)

    /// The keys read and merged by their declaration's ``LayerField``.
    static let fieldKeys = ManifestSchema.keys.filter { $0.field != nil }.map(\.path)

    /// Values just outside a key's range, below and above, as YAML writes them.
    private static func outside(_ values: ManifestKey.Values) -> [String] {
        switch values {
        case .wholeNumbers(let r): return [String(r.lowerBound - 1), String(r.upperBound + 1)]
        case .numbers(let r): return [ManifestKey.Values.written(r.lowerBound - 0.01), ManifestKey.Values.written(r.upperBound + 0.01)]
        case .choices, .described: return []
        }
    }

    @Test(arguments: rangedKeys)
    func aValueJustOutsideTheRangeIsRefusedWithTheDocumentedRange(path: String) throws {
        let key = try #require(ManifestSchema.key(path))
        let values = try #require(key.values)
        let (lower, upper) = try #require(values.bounds)
        #expect(key.range == "\(lower)…\(upper)")
        let number = key.kind == .wholeNumber ? "a whole number" : "a number"
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        for value in Self.outside(values) {
            let yaml = ManifestExamples.manifest(key, value: value)
            do {
                _ = try ManifestExamples.load(yaml, in: dir)
                Issue.record("\(path) accepted \(value):\n\(yaml)")
            } catch let error as ManifestError {
                #expect(error.file == dir.url.appendingPathComponent("book.yml").path)
                #expect(error.line == yaml.split(separator: "\n").count, "\(error)")
                #expect(error.key == ManifestExamples.concretePath(key), "\(error)")
                #expect(error.message == "expected \(number) from \(lower) to \(upper), found \(value)", "\(error)")
            }
        }
    }

    @Test(arguments: rangedKeys)
    func theRangesBoundsAreAccepted(path: String) throws {
        let key = try #require(ManifestSchema.key(path))
        let (lower, upper) = try #require(key.values?.bounds)
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        for value in [lower, upper] {
            let yaml = ManifestExamples.manifest(key, value: value)
            #expect(throws: Never.self, "\(yaml)") { try ManifestExamples.load(yaml, in: dir) }
        }
    }

    /// A key with a field: its example is in the layer parsed from a manifest giving it, not in
    /// one without it, and it survives the merge from either side.
    @Test(arguments: fieldKeys)
    func theExampleLandsInTheLayerAndMerges(path: String) throws {
        let key = try #require(ManifestSchema.key(path))
        let field = try #require(key.field)
        let yaml = key.onlyInDefaults ? "\(key.name): \(key.example)\n" : ManifestExamples.manifest(key, value: key.example)
        let layer = try ManifestLayer.parse(yaml: yaml, file: "book.yml", presets: [:], isDefaults: key.onlyInDefaults)
        #expect(field.given(layer, key), "\(yaml)")
        #expect(!field.given(try ManifestLayer.parse(yaml: "sources: [a.txt]\n", file: "book.yml", presets: [:]), key))
        #expect(field.given(ManifestLayer().merged(over: layer), key), "from the defaults")
        #expect(field.given(layer.merged(over: ManifestLayer()), key), "from the manifest")
    }

    /// The manifest's value replaces the defaults' for a key with a field (a `.replace` key, or
    /// the entry of a `.perEntry` mapping).
    @Test func aFieldsValueReplacesTheDefaults() throws {
        let defaults = try ManifestLayer.parse(yaml: "priority: 1\nvtt: captions\naudio: { quality: 3, bitrate: 96 }\n", file: "d.yml", presets: [:])
        let manifest = try ManifestLayer.parse(yaml: "priority: 2\naudio: { quality: 5 }\n", file: "m.yml", presets: [:])
        let merged = manifest.merged(over: defaults)
        #expect(merged.priority == 2 && merged.vtt == .captions && merged.quality == 5 && merged.bitrate == 96)
    }

    /// Every typed range or list of choices is what the README's row and the manual page show.
    @Test func theDocumentationShowsEachDeclaredRange() {
        let readme = ManifestReference.markdown()
        // (The page's lines joined again: it breaks them at spaces only.)
        let page = ManifestReference.manPage(date: "2026-01-01").split(separator: "\n").joined(separator: " ")
        for key in ManifestSchema.keys {
            guard let range = key.range else { continue }
            let takes = "\(key.kind.rawValue): \(range)"
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(key.path)` |") }
            #expect(row?.contains(takes.replacingOccurrences(of: "|", with: "\\|")) == true, "\(key.path): \(takes)")
            #expect(page.contains(RoffText.escaped("Takes \(takes).")), "\(key.path): \(takes)")
        }
    }

    /// The daemon keys document the defaults a manifest that leaves them out gets.
    @Test func theDocumentedDaemonDefaultsAreTheResolvedOnes() throws {
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        let s = try ManifestExamples.load("title: T\nsources: [a.txt]\n", in: dir).scheduling
        func documented(_ path: String) -> String? { ManifestSchema.key(path)?.defaultValue }
        #expect(documented("watch") == String(s.watch) && documented("catchup") == s.catchUp.rawValue)
        #expect(documented("priority") == String(s.priority) && documented("chunk_attempts") == String(s.chunkAttempts))
        #expect(documented("retry.limit") == String(s.retryLimit))
        #expect(documented("retry.delay") == ManifestKey.Values.written(s.retryDelay))
        #expect(documented("retry.max_delay") == ManifestKey.Values.written(s.retryMaxDelay))
    }

    /// The choices a key declares from an enumeration are its raw values, which its parser accepts.
    @Test func aChoiceKeyDeclaresItsEnumerationsValues() {
        #expect(ManifestSchema.key("vtt")?.values == .choices(of: WebVTTCues.self))
        #expect(ManifestSchema.key("vtt")?.range == "sentences, captions")
        #expect(ManifestKey.voicePitch.range == "0.5…2")
        #expect(ManifestKey.loudnessTarget.range == "-40…-5")
    }
}
