import Foundation
import Yams

/// Typed reading of a YAML node that reports the file, line and key path of every problem.
struct YAMLValue {
    let node: Node
    let key: String
    let file: String

    var line: Int? { node.mark?.line }

    func error(_ message: String) -> ManifestError {
        ManifestError(file: file, line: line, key: key.isEmpty ? nil : key, message: message)
    }

    private var shown: String {
        if let s = node.scalar?.string { return "\"\(UserText.excerpt(s))\"" }
        if node.mapping != nil { return "a mapping" }
        if node.sequence != nil { return "a list" }
        return "an alias"
    }

    /// The entries of a mapping whose keys ``ManifestSchema`` lists at `parent` (`""`, `voice`,
    /// `sources[]` …); an unknown key is an error that suggests the closest allowed one.
    func mapping(schema parent: String, inDefaults: Bool = false) throws -> [String: YAMLValue] {
        let allowed = ManifestSchema.names(in: parent, inDefaults: inDefaults)
        return try mapping(allowed: allowed) { ManifestSchema.unknownKeyMessage($0, allowed: allowed, parent: parent) }
    }

    /// The mapping's entries; a key not in `allowed` is an error (nil: any key), with
    /// `unknown`'s message for it when given.
    func mapping(allowed: [String]?, unknown: ((String) -> String)? = nil) throws -> [String: YAMLValue] {
        guard let mapping = node.mapping else { throw error("expected a mapping, found \(shown)") }
        var result: [String: YAMLValue] = [:]
        for (k, v) in mapping {
            guard let written = k.scalar?.string else {
                throw ManifestError(file: file, line: k.mark?.line, key: key.isEmpty ? nil : key, message: "keys must be plain strings")
            }
            let name = written
            let path = key.isEmpty ? name : "\(key).\(name)"
            if let allowed, !allowed.contains(name) {
                throw ManifestError(file: file, line: k.mark?.line, key: UserText.excerpt(path),
                                    message: unknown?(name) ?? "unknown key (expected one of: \(allowed.joined(separator: ", ")))")
            }
            result[name] = YAMLValue(node: v, key: path, file: file)
        }
        return result
    }

    /// A mapping with arbitrary string keys.
    func dictionary() throws -> [(String, YAMLValue)] {
        guard let mapping = node.mapping else { throw error("expected a mapping, found \(shown)") }
        return try mapping.map { k, v in
            guard let name = k.scalar?.string else { throw error("keys must be plain strings") }
            return (name, YAMLValue(node: v, key: key.isEmpty ? name : "\(key).\(name)", file: file))
        }
    }

    func list() throws -> [YAMLValue] {
        guard let sequence = node.sequence else { throw error("expected a list, found \(shown)") }
        return sequence.enumerated().map { YAMLValue(node: $1, key: "\(key)[\($0 + 1)]", file: file) }
    }

    var isList: Bool { node.sequence != nil }
    var isMapping: Bool { node.mapping != nil }

    func string() throws -> String {
        guard let scalar = node.scalar else { throw error("expected a string, found \(shown)") }
        if scalar.style == .plain, node.null != nil { throw error("expected a string, found nothing") }
        return scalar.string
    }

    func bool() throws -> Bool {
        guard node.scalar != nil, let value = node.bool else { throw error("expected true or false, found \(shown)") }
        return value
    }

    func int(in range: ClosedRange<Int>) throws -> Int {
        guard node.scalar != nil, let value = node.int else {
            throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(shown)")
        }
        guard range.contains(value) else {
            throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(value)")
        }
        return value
    }

    func double(in range: ClosedRange<Double>) throws -> Double {
        guard node.scalar != nil, let value = node.float ?? node.int.map(Double.init) else {
            throw error("expected a number from \(format(range.lowerBound)) to \(format(range.upperBound)), found \(shown)")
        }
        guard range.contains(value) else {
            throw error("expected a number from \(format(range.lowerBound)) to \(format(range.upperBound)), found \(format(value))")
        }
        return value
    }

    /// A string, or a list of strings.
    func strings() throws -> [String] {
        if isList { return try list().map { try $0.string() } }
        return [try string()]
    }

    private func format(_ x: Double) -> String { ManifestKey.Values.written(x) }
}

extension [String: YAMLValue] {
    /// The number this mapping gives for `key` (by its name), checked against its declared range.
    func number(_ key: ManifestKey) throws -> Double? { try self[key.name]?.double(in: key.numbers) }

    /// The whole number this mapping gives for `key` (by its name), checked against its declared range.
    func wholeNumber(_ key: ManifestKey) throws -> Int? { try self[key.name]?.int(in: key.wholeNumbers) }
}
