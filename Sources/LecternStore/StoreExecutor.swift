import Foundation

/// A backend as ``StoreRules`` uses it: a ``JobStore`` that runs a ``StoreTransaction``.
package protocol StoreExecutor: JobStore {
    associatedtype Transaction: StoreTransaction
    /// Runs `body` in one transaction that may write.
    func writing<T>(_ body: (Transaction) throws -> T) throws -> T
    /// Runs `body` in one transaction that only reads (a read-only store can run it).
    func reading<T>(_ body: (Transaction) throws -> T) throws -> T
}
