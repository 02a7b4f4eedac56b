import Foundation

/// A token bucket per key (a token's owner): `burst` actions at once, then one every
/// `60 / perMinute` seconds. Kept in each `serve` process's memory.
final class RateLimiter: @unchecked Sendable {
    // @unchecked Sendable is safe: `buckets` is only touched while holding `lock`.
    private let lock = NSLock()
    private var buckets: [String: (tokens: Double, at: Date)] = [:]
    let perMinute: Double
    let burst: Double

    init(perMinute: Double, burst: Double) {
        self.perMinute = perMinute
        self.burst = burst
    }

    /// Takes one action for `key`; nil if allowed, else the seconds until the next is.
    func take(_ key: String, now: Date = Date()) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        var bucket = buckets[key] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + now.timeIntervalSince(bucket.at) * perMinute / 60)
        bucket.at = now
        guard bucket.tokens >= 1 else {
            buckets[key] = bucket
            return (1 - bucket.tokens) * 60 / perMinute
        }
        bucket.tokens -= 1
        buckets[key] = bucket
        return nil
    }
}
