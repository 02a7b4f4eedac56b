import Foundation

/// A backend as ``StoreRules`` uses it: a ``JobStore`` that runs a ``StoreTransaction``.
package protocol StoreExecutor: JobStore {
    associatedtype Transaction: StoreTransaction
    /// Runs `body` in one transaction that may write.
    func writing<T: Sendable>(_ body: (Transaction) async throws -> T) async throws -> T
    /// Runs `body` in one transaction that only reads (a read-only store can run it).
    func reading<T: Sendable>(_ body: (Transaction) async throws -> T) async throws -> T
}
