import Foundation
import Logging

/// A swift-log handler for services: one line per message on stderr, starting with the syslog
/// priority in angle brackets (`<6>` info, `<4>` warning, `<3>` error …), which journald turns
/// into the entry's priority and strips, then the message and its metadata as `key=value`.
/// No timestamp: journald adds its own.
struct JournalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    func log(event: LogEvent) {
        let all = self.metadata.merging(event.metadata ?? [:]) { $1 }
        var text = "<\(Self.priority(event.level))>\(event.message)"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            let v = "\(value)".replacingOccurrences(of: "\n", with: " ")
            text += v.contains(" ") || v.isEmpty ? " \(key)=\"\(v.replacingOccurrences(of: "\"", with: "\\\""))\"" : " \(key)=\(v)"
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
