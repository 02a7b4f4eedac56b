import Foundation
internal import CYaml

/// Limits a YAML text's aliases before it is composed into nodes.
///
/// An alias (`*name`) stands for the whole node its anchor names, so a few lines can stand for
/// billions of nodes ("billion laughs"); composing is cheap, but using such a node as a mapping
/// key hashes all of it, and reading it walks all of it. This check reads libyaml's event
/// stream once, in time linear in the text, and refuses a text with more than
/// ``maximumAliases`` aliases or whose nodes, aliases expanded, number more than
/// ``maximumNodes``. Syntax errors are left to the composer, which reports them.
enum YAMLAliasCheck {
    static let maximumAliases = 1_000
    static let maximumNodes = 100_000

    /// - throws: ``ManifestError`` naming the file and the line of the alias that goes over a limit.
    static func check(_ yaml: String, file: String) throws(ManifestError) {
        // On the heap, at one address for its whole life: libyaml keeps a pointer to the parser
        // inside it (its string reader's data), which a Swift inout copy would leave dangling.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        parser.initialize(to: yaml_parser_t())
        guard yaml_parser_initialize(parser) == 1 else { return }
        defer { yaml_parser_delete(parser) }
        var bytes = Array(yaml.utf8)
        try bytes.withUnsafeMutableBufferPointer { (buffer) throws(ManifestError) in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            try scan(parser, file: file)
        }
    }

    private static func scan(_ parser: UnsafeMutablePointer<yaml_parser_t>, file: String) throws(ManifestError) {
        /// The expanded node count of each open collection (and of the stream, at the bottom),
        /// with the collection's anchor.
        var open: [(size: Int, anchor: String?)] = [(0, nil)]
        var sizes: [String: Int] = [:]
        var aliases = 0
        func add(_ size: Int, line: Int) throws(ManifestError) {
            open[open.count - 1].size += size
            guard open[open.count - 1].size <= maximumNodes else {
                throw ManifestError(file: file, line: line, message: "its aliases expand to more than \(maximumNodes) values "
                                    + "(a \"billion laughs\"); write the values out or use fewer aliases")
            }
        }
        func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else { return }
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return
            case YAML_SCALAR_EVENT:
                if let anchor = name(event.data.scalar.anchor) { sizes[anchor] = 1 }
                try add(1, line: line)
            case YAML_ALIAS_EVENT:
                aliases += 1
                guard aliases <= maximumAliases else {
                    throw ManifestError(file: file, line: line, message: "more than \(maximumAliases) aliases (*name); write the values out")
                }
                try add(name(event.data.alias.anchor).flatMap { sizes[$0] } ?? 1, line: line)
            case YAML_SEQUENCE_START_EVENT:
                open.append((0, name(event.data.sequence_start.anchor)))
            case YAML_MAPPING_START_EVENT:
                open.append((0, name(event.data.mapping_start.anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard open.count > 1 else { return }
                let closed = open.removeLast()
                if let anchor = closed.anchor { sizes[anchor] = closed.size + 1 }
                try add(closed.size + 1, line: line)
            default:
                break
            }
        }
    }
}
