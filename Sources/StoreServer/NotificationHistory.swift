#if Server
    import Foundation
    import Ledger

    /// The notification history kept across restarts, in one of two places: a JSON Lines file (``NotificationHistoryFile``,
    /// beside a state file or where the configuration says), or a collection of the store's own Ledger database (a store
    /// on a server database, which has no file beside it), one record per notification keyed by its UUID, its value the
    /// record's JSON as the file's line holds it. Both hold each notification as it stands after its last change, in the
    /// order the notifications were made; both leave out what `keep` turns down when opened, and what
    /// ``rewrite(_:)`` drops.
    final class NotificationHistory: @unchecked Sendable {
        // @unchecked: used only under NotificationSender's mutex.

        /// Where a history is kept.
        enum Place {
            /// A JSON Lines file at this path.
            case file(String)
            /// The collection ``collection`` of a store's Ledger database, named `location` in messages and reached
            /// through `database` (`nil` once the store is closed).
            case database(location: String, database: @Sendable () -> LedgerDatabase?)
        }

        /// The collection of the store's database that holds the history of a store on a server database.
        static let collection = "openstorekit.server.notifications"

        private enum Storage {
            case file(NotificationHistoryFile)
            case database(location: String, database: @Sendable () -> LedgerDatabase?)
        }
        private let storage: Storage
        /// The notifications a history in a database holds there, by UUID (a property of its own, so that adding one
        /// changes the set in place instead of copying it out of the storage and back).
        private var stored: Set<String>

        private init(_ storage: Storage, stored: Set<String> = []) {
            self.storage = storage
            self.stored = stored
        }

        /// Opens the history (creating it) and returns it with the records it holds that `keep` accepts, in the order
        /// they were made; the others are removed from it.
        ///
        /// - Throws: ``StoreServerError/Code/notificationStateFailed`` naming the file and line, or the database,
        ///   collection and key, of what is not a record; nothing is changed then.
        static func open(_ place: Place, keep: (NotificationRecord) -> Bool) throws(StoreServerError) -> (
            NotificationHistory, [NotificationRecord]
        ) {
            switch place {
            case .file(let path):
                let (file, records) = try NotificationHistoryFile.open(path: path, keep: keep)
                return (NotificationHistory(.file(file)), records)
            case .database(let location, let database):
                guard let ledger = database() else { throw closed(location) }
                var records = try read(ledger, location: location)
                let dropped = records.filter { !keep($0) }.map(\.notificationUUID)
                records.removeAll { !keep($0) }
                try remove(dropped, from: ledger, location: location)
                let history = NotificationHistory(
                    .database(location: location, database: database), stored: Set(records.map(\.notificationUUID)))
                return (history, records)
            }
        }

        /// The records a store's database holds, in the order they were made, without changing it.
        private static func read(_ ledger: LedgerDatabase, location: String) throws(StoreServerError)
            -> [NotificationRecord]
        {
            let decoder = JSONDecoder()
            do {
                return try ledger.read { txn in
                    try txn.all(in: collection, order: .insertion).map { (row) throws(StoreServerError) in
                        guard let record = try? decoder.decode(NotificationRecord.self, from: Data(row.value)),
                            record.notificationUUID == row.key
                        else {
                            throw StoreServerError(
                                .notificationStateFailed,
                                "\(location), collection \(collection), key \(row.key): not a notification record of "
                                    + "that UUID; the database is left as it is (remove the collection to start a new "
                                    + "history)")
                        }
                        return record
                    }
                }
            } catch let error as StoreServerError {
                throw error
            } catch {
                throw failed("read", location, error)
            }
        }

        private static func remove(_ uuids: [String], from ledger: LedgerDatabase, location: String)
            throws(StoreServerError)
        {
            guard !uuids.isEmpty else { return }
            do {
                try ledger.write { txn in
                    for uuid in uuids { _ = try txn.remove(forKey: uuid, in: collection) }
                }
            } catch {
                throw failed("write", location, error)
            }
        }

        /// Keeps a record's new state: appended to the file and flushed to disk, or put in the database and committed.
        func write(_ record: NotificationRecord) throws(StoreServerError) {
            switch storage {
            case .file(let file):
                try file.write(record)
            case .database(let location, let database):
                guard let ledger = database() else { throw Self.closed(location) }
                let value = NotificationHistoryFile.encoded(record)
                do {
                    try ledger.write { txn in try txn.put(value, forKey: record.notificationUUID, in: Self.collection) }
                } catch {
                    throw Self.failed("write", location, error)
                }
                stored.insert(record.notificationUUID)
            }
        }

        /// Makes the history hold exactly `records` (dropping the notifications no longer kept).
        func rewrite(_ records: [NotificationRecord]) throws(StoreServerError) {
            switch storage {
            case .file(let file):
                try file.rewrite(records)
            case .database(let location, let database):
                guard let ledger = database() else { throw Self.closed(location) }
                let kept = Set(records.map(\.notificationUUID))
                try Self.remove(Array(stored.subtracting(kept)), from: ledger, location: location)
                stored = kept
            }
        }

        private static func closed(_ location: String) -> StoreServerError {
            StoreServerError(
                .notificationStateFailed,
                "cannot keep the notification history in \(location): the store's database is closed")
        }

        private static func failed(_ action: String, _ location: String, _ error: any Error) -> StoreServerError {
            let detail = (error as? LedgerError)?.detail ?? "\(error)"
            return StoreServerError(
                .notificationStateFailed,
                "cannot \(action) the notification history in \(location) (collection \(collection)): \(detail)")
        }
    }
#endif
