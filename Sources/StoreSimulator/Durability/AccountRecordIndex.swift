import Foundation
import Ledger

/// The index of each account's records in a state file (format 2): which rows of the table of records
/// (``StoreTables/Table/records``) are an account's, so that a store reads an account's records when it first needs
/// them (``RecordSource``) instead of every record on opening.
///
/// Collection ``collection``: an account's identifiers in ascending order, ``chunkSize`` per row, each identifier 8
/// bytes big-endian; the key of a row is its number (6 digits from 0), a space and the account. Compaction rewrites
/// an account's rows from the first one its changes reach (new identifiers are the largest, so a purchase rewrites
/// the last row only) and removes rows past the end. The meta key ``completeKey`` says the index lists every record;
/// a file without it (written before the index) is read whole on opening and gets the index then.
enum AccountRecordIndex {
    /// The collection of the index's rows.
    static let collection = "openstorekit.store.account-records"
    /// The meta key set (to 1) once the index lists every record of the file.
    static let completeKey = "openstorekit.store.account-records"
    /// The number of identifiers per row: 512 (4 KiB).
    static let chunkSize = 512

    /// The key of an account's row `chunk`.
    static func key(_ chunk: Int, of account: String) -> String {
        let digits = String(chunk)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + " " + account
    }

    /// An account's identifiers, in ascending order; empty for an account the index does not list.
    static func ids(_ txn: borrowing LedgerReadTransaction, of account: String) throws -> [UInt64] {
        var ids: [UInt64] = []
        var chunk = 0
        while let bytes = try txn.value(forKey: key(chunk, of: account), in: collection) {
            guard bytes.count % 8 == 0, !bytes.isEmpty, bytes.count <= chunkSize * 8 else {
                throw RecordSource.Damage(
                    table: collection, row: key(chunk, of: account),
                    problem: "\(bytes.count) bytes is not 1 to \(chunkSize) identifiers of 8 bytes")
            }
            for start in stride(from: 0, to: bytes.count, by: 8) {
                var id: UInt64 = 0
                for byte in bytes[start..<start + 8] { id = id << 8 | UInt64(byte) }
                guard ids.last.map({ $0 < id }) ?? true else {
                    throw RecordSource.Damage(
                        table: collection, row: key(chunk, of: account),
                        problem: "the identifiers are not in ascending order at \(id)")
                }
                ids.append(id)
            }
            chunk += 1
        }
        return ids
    }

    /// The accounts the index lists, in key order.
    static func accounts(_ txn: borrowing LedgerReadTransaction) throws -> [String] {
        var accounts: [String] = []
        try txn.forEach(in: collection) { key, _ in
            if key.hasPrefix("000000 ") { accounts.append(String(key.dropFirst(7))) }
        }
        return accounts
    }

    /// Writes an account's rows from the one holding the first identifier at or above `from` (every row with
    /// `from` 0), and removes the rows past the last.
    static func write(
        _ txn: borrowing LedgerWriteTransaction, account: String, ids: RecordTable.IDs, from: UInt64
    ) throws {
        let first = ids.ids.partitionPoint(before: from) / chunkSize
        var chunk = first
        var start = first * chunkSize
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chunkSize * 8)
        while start < ids.count {
            bytes.removeAll(keepingCapacity: true)
            for id in ids[start..<min(start + chunkSize, ids.count)] {
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: id >> shift))
                }
            }
            try txn.put(bytes, forKey: key(chunk, of: account), in: collection)
            chunk += 1
            start += chunkSize
        }
        while try txn.remove(forKey: key(chunk, of: account), in: collection) { chunk += 1 }
    }
}
