import Foundation
import LecternCore
import Yams

/// The manifest of a served job, as the service writes it into the job's `input/` folder:
/// either written from the form's fields around the uploaded documents, or the uploaded
/// manifest's own text with the service's `output:` appended (so its line numbers stay the
/// user's).
///
/// A manifest from the network may not name files on the server: every file it names
/// (`sources`, `cover`, `lexicons`) must be a plain name of a file uploaded with it, it may not
/// set `output:` (the service keeps outputs in the job's folder) or name a Piper `model` file
/// (voices are chosen by name); then, once loaded, every input it resolves to must lie in the
/// job's folder or the service's Config folder.
struct ServedManifest {
    /// The settings a form (or `PATCH`) may give instead of a manifest.
    struct Settings: Codable, Sendable, Equatable {
        var title: String?
        var author: String?
        var voice: String?
        var rate: Double?
        var pitch: Double?
        var volume: Double?
        /// Set by the service, not the request: `piper` when `voice` names an installed Piper voice.
        var engine: String? = nil

        init(title: String? = nil, author: String? = nil, voice: String? = nil, rate: Double? = nil, pitch: Double? = nil, volume: Double? = nil) {
            (self.title, self.author, self.voice, self.rate, self.pitch, self.volume) = (title, author, voice, rate, pitch, volume)
        }

        /// Decodes a `PATCH` body; a key that is not one of these is refused, not ignored
        /// (`{"rat": 0.5}` would otherwise answer 200 and change nothing).
        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: AnyKey.self).allKeys
            if let unknown = keys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil })?.stringValue {
                throw ServeError.badRequest("the key \(UserTextEcho.quoted(unknown)) is not one of title, author, voice, rate, pitch, volume",
                                            field: unknown.isEmpty ? "body" : unknown)
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(title: try container.decodeIfPresent(String.self, forKey: .title), author: try container.decodeIfPresent(String.self, forKey: .author),
                      voice: try container.decodeIfPresent(String.self, forKey: .voice), rate: try container.decodeIfPresent(Double.self, forKey: .rate),
                      pitch: try container.decodeIfPresent(Double.self, forKey: .pitch), volume: try container.decodeIfPresent(Double.self, forKey: .volume))
        }

        private enum CodingKeys: String, CodingKey { case title, author, voice, rate, pitch, volume }

        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    static let outputLine = "output: ../output"
    static let maxBytes = 256 << 10

    /// The manifest text for documents `documents` uploaded without a manifest.
    static func written(name: String, documents: [String], cover: String?, lexicons: [String], settings: Settings) -> String {
        var root: [(String, Node)] = [("name", .init(name))]
        if let title = settings.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty { root.append(("title", .init(title))) }
        if let author = settings.author?.trimmingCharacters(in: .whitespacesAndNewlines), !author.isEmpty { root.append(("author", .init(author))) }
        root.append(("sources", .sequence(.init(documents.map { Node.mapping(.init([(Node("path"), Node($0))])) }))))
        if let cover { root.append(("cover", .init(cover))) }
        if !lexicons.isEmpty { root.append(("lexicons", .sequence(.init(lexicons.map { Node($0) })))) }
        var voice: [(Node, Node)] = []
        if let name = settings.voice?.trimmingCharacters(in: .whitespaces), !name.isEmpty { voice.append((Node("name"), Node(name))) }
        if let engine = settings.engine { voice.append((Node("engine"), Node(engine))) }
        if let rate = settings.rate { voice.append((Node("rate"), Node(String(rate), Tag(.float)))) }
        if let pitch = settings.pitch { voice.append((Node("pitch"), Node(String(pitch), Tag(.float)))) }
        if let volume = settings.volume { voice.append((Node("volume"), Node(String(volume), Tag(.float)))) }
        if !voice.isEmpty { root.append(("voice", .mapping(.init(voice)))) }
        root.append(("timings", .sequence(.init(["json", "vtt", "html"].map { Node($0) }))))
        let node = Node.mapping(.init(root.map { (Node($0.0), $0.1) }))
        let text = (try? Yams.serialize(node: node, sortKeys: false)) ?? ""
        return "# Written by lectern serve from the uploaded documents.\n" + text + outputLine + "\n"
    }

    /// The uploaded manifest's text with the service's output folder, after checking it names
    /// no file on the server.
    ///
    /// - throws: ``ServeError`` 400 naming the key (`manifest.sources[0].path`) and line.
    static func fromUpload(_ text: String, uploaded: Set<String>) throws -> String {
        guard text.utf8.count <= maxBytes else {
            throw ServeError(.contentTooLarge, "the manifest is larger than \(maxBytes) bytes", field: "manifest")
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw ServeError.badRequest("the manifest is not YAML: \(error)", field: "manifest")
        }
        guard case .mapping(let root)? = node else {
            throw ServeError.badRequest("the manifest must be a YAML mapping of keys (title:, sources:, voice: …)", field: "manifest")
        }
        var budget = 100_000
        try check(.mapping(root), path: "", uploaded: uploaded, budget: &budget)
        // Appended as a last top-level key: a block mapping's line numbers stay as written.
        let flow = root.style == .flow
        if flow {
            var edited = root
            edited[Node("output")] = Node("../output")
            return (try? Yams.serialize(node: .mapping(edited), sortKeys: false)) ?? text
        }
        return text + (text.hasSuffix("\n") ? "" : "\n") + outputLine + "\n"
    }

    /// The manifest at `text` with the settings of a `PATCH` applied (the form's keys).
    static func patched(_ text: String, with settings: Settings) throws -> String {
        guard case .mapping(var root)? = try? Yams.compose(yaml: text) else {
            throw ServeError.conflict("the job's manifest cannot be edited: it is not a YAML mapping")
        }
        if let title = settings.title { root[Node("title")] = Node(title) }
        if let author = settings.author { root[Node("author")] = Node(author) }
        if settings.voice != nil || settings.rate != nil || settings.pitch != nil || settings.volume != nil {
            var voice: Node.Mapping
            if case .mapping(let existing)? = root[Node("voice")] { voice = existing } else if case .scalar(let name)? = root[Node("voice")] {
                voice = Node.Mapping([(Node("name"), Node(name.string))])
            } else { voice = Node.Mapping([]) }
            if let name = settings.voice {
                voice[Node("name")] = Node(name)
                // The engine goes with the name: a Piper voice's, or none (espeak-ng).
                if let engine = settings.engine { voice[Node("engine")] = Node(engine) } else { voice[Node("engine")] = nil }
                voice[Node("model")] = nil
            }
            if let rate = settings.rate { voice[Node("rate")] = Node(String(rate), Tag(.float)) }
            if let pitch = settings.pitch { voice[Node("pitch")] = Node(String(pitch), Tag(.float)) }
            if let volume = settings.volume { voice[Node("volume")] = Node(String(volume), Tag(.float)) }
            root[Node("voice")] = .mapping(voice)
        }
        return try Yams.serialize(node: .mapping(root), sortKeys: false)
    }

    private static func check(_ node: Node, path: String, uploaded: Set<String>, budget: inout Int) throws {
        budget -= 1
        guard budget > 0 else { throw ServeError.badRequest("the manifest is too deeply nested or too large", field: "manifest") }
        func refuse(_ key: String, _ why: String, at node: Node) -> ServeError {
            let line = node.mark.map { " (line \($0.line))" } ?? ""
            return ServeError.badRequest("manifest\(line), \(key): \(why)", field: "manifest.\(key)")
        }
        func fileName(_ value: Node, key: String) throws {
            guard case .scalar(let scalar) = value else { throw refuse(key, "must be a file name", at: value) }
            let name = scalar.string
            if name.hasPrefix("/") || name.hasPrefix("~") || name.contains("/") || name.contains("\\") || name.hasPrefix(".") {
                throw refuse(key, "a manifest sent over HTTP may not name files on the server (\(UserTextEcho.quoted(name))): "
                             + "name a file uploaded with it, by its plain name", at: value)
            }
            let matches = name.contains("*") ? uploaded.contains { Self.glob(name, matches: $0) } : uploaded.contains(name)
            guard matches else {
                throw refuse(key, "\(UserTextEcho.quoted(name)) is not among the uploaded files (\(uploaded.sorted().joined(separator: ", ")))", at: value)
            }
        }
        switch node {
        case .mapping(let mapping):
            for (keyNode, value) in mapping {
                let key = keyNode.string ?? ""
                let full = path.isEmpty ? key : "\(path).\(key)"
                if path.isEmpty && key == "output" {
                    throw refuse(full, "the service keeps a job's outputs itself: leave `output:` out", at: keyNode)
                }
                if key == "model" {
                    throw refuse(full, "a manifest sent over HTTP may not name a voice's model file: choose the voice by `name:`", at: keyNode)
                }
                switch (path, key) {
                case ("", "cover"): try fileName(value, key: full)
                case ("", "lexicons"), ("", "sources"):
                    if case .sequence(let items) = value {
                        for (index, item) in items.enumerated() {
                            let itemKey = "\(full)[\(index)]"
                            if case .mapping(let source) = item, key == "sources" {
                                guard let pathNode = source[Node("path")] else { throw refuse(itemKey, "needs `path:`", at: item) }
                                try fileName(pathNode, key: "\(itemKey).path")
                                try check(item, path: itemKey, uploaded: uploaded, budget: &budget)
                            } else {
                                try fileName(item, key: itemKey)
                            }
                        }
                    } else {
                        try fileName(value, key: full)
                    }
                default: try check(value, path: full, uploaded: uploaded, budget: &budget)
                }
            }
        case .sequence(let items):
            for (index, item) in items.enumerated() { try check(item, path: "\(path)[\(index)]", uploaded: uploaded, budget: &budget) }
        case .scalar, .alias: break
        }
    }

    /// Whether `name` matches `pattern`, whose `*` matches any run of characters.
    static func glob(_ pattern: String, matches name: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, name.hasPrefix(first) else { return false }
        var rest = Substring(name.dropFirst(first.count))
        for (index, part) in parts.enumerated().dropFirst() {
            if index == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.isEmpty
    }
}
