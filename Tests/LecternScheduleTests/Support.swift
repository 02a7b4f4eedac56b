import Foundation

/// Parses an ISO-8601 instant with `Z` or an offset, e.g. `2026-03-29T03:00:00+02:00`.
func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("not an ISO-8601 instant: \(text)") }
    return date
}

/// The instant in UTC, e.g. `2026-03-29T01:00:00Z`, for readable failure messages.
func utc(_ date: Date?) -> String {
    guard let date else { return "nil" }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}

func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown time zone \(identifier)") }
    return zone
}
