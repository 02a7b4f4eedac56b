import Foundation

/// Encodes a ``TimingDocument`` as JSON (stable key order, no escaped slashes).
public enum TimingWriter {
    public static func json(_ document: TimingDocument) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }
}
