import Foundation
import LecternStore

extension StoreAddress {
    /// Opens the store, SQLite or PostgreSQL, migrating it to the current schema.
    ///
    /// - parameter localFolder: This host's folder for what is never shared (the local chunk
    ///   cache, failure notes); a SQLite store keeps them beside its file instead.
    /// - throws: ``StoreError`` when the store cannot be opened, reached or migrated.
    public func open(localFolder: URL) async throws -> any JobStore {
        try await open(localFolder: localFolder, postgres: { address, folder in try await PostgresJobStore(address: address, localFolder: folder) })
    }
}
