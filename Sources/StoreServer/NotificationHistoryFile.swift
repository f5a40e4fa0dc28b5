#if Server
    import Foundation

    /// The notification history kept across restarts: a JSON Lines file where each line is a ``NotificationRecord`` as
    /// it stands after a change (the last line of a notification wins). Rewritten compactly when opened, without the
    /// records `keep` turns down, and by ``rewrite(_:)``.
    final class NotificationHistoryFile: @unchecked Sendable {
        // @unchecked: used only under NotificationSender's mutex.
        let path: String
        private var handle: FileHandle

        /// The most bytes one line of the file may hold (1 MiB): a record, its signed payload included, holds a few
        /// kilobytes.
        static let maximumLineLength = 1 << 20

        /// Opens the file (creating it) and returns it with the records it holds that `keep` accepts, in the order they
        /// were made.
        static func open(path: String, keep: (NotificationRecord) -> Bool) throws(StoreServerError) -> (
            NotificationHistoryFile, [NotificationRecord]
        ) {
            var records = try read(path: path)
            records.removeAll { !keep($0) }
            let handle = try writeCompactly(records, to: path)
            return (NotificationHistoryFile(path: path, handle: handle), records)
        }

        /// The records the file holds (none when there is no file), the last line of each notification winning,
        /// without changing the file. Read a line at a time: memory grows with the records, not with a line.
        ///
        /// - Throws: ``StoreServerError/Code/notificationStateFailed`` naming the file and line for a line that is not
        ///   a record or is longer than ``maximumLineLength``; the last line without its line end too, unless it starts
        ///   as a record does (`{`), as a write cut short by a crash leaves it.
        static func read(path: String) throws(StoreServerError) -> [NotificationRecord] {
            var records: [NotificationRecord] = []
            guard FileManager.default.fileExists(atPath: path) else { return records }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw StoreServerError(.notificationStateFailed, "cannot read the notification history \(path)")
            }
            defer { try? handle.close() }
            var index: [String: Int] = [:]
            let decoder = JSONDecoder()
            func refuse(_ number: Int, _ problem: String) -> StoreServerError {
                StoreServerError(
                    .notificationStateFailed,
                    "\(path), line \(number): \(problem); the file is left as it is (move it aside to start a new "
                        + "history)")
            }
            func take(_ line: [UInt8], _ number: Int) throws(StoreServerError) {
                guard !line.isEmpty else { return }
                guard let record = try? decoder.decode(NotificationRecord.self, from: Data(line)) else {
                    throw refuse(number, "not a notification record")
                }
                if let existing = index[record.notificationUUID] {
                    records[existing] = record
                } else {
                    index[record.notificationUUID] = records.count
                    records.append(record)
                }
            }
            var line: [UInt8] = []
            var number = 1
            while true {
                let chunk: Data?
                do {
                    chunk = try handle.read(upToCount: 1 << 16)
                } catch {
                    throw StoreServerError(
                        .notificationStateFailed, "cannot read the notification history \(path): \(error)")
                }
                guard let chunk, !chunk.isEmpty else { break }
                var start = chunk.startIndex
                while start < chunk.endIndex {
                    let end = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) ?? chunk.endIndex
                    guard line.count + (end - start) <= maximumLineLength else {
                        throw refuse(number, "longer than \(maximumLineLength) bytes, so not a notification record")
                    }
                    line.append(contentsOf: chunk[start..<end])
                    guard end < chunk.endIndex else { break }
                    try take(line, number)
                    line.removeAll(keepingCapacity: true)
                    number += 1
                    start = end + 1
                }
            }
            // A last line without its line end is taken if it is a whole record. A record's start cut short by a crash
            // (its change was never acknowledged: the write and its flush did not end) is dropped; anything else is
            // refused, since dropping it would lose whatever it held.
            do throws(StoreServerError) {
                try take(line, number)
            } catch {
                guard line.first == UInt8(ascii: "{") else { throw error }
            }
            return records
        }

        /// Replaces the file's contents with one line per record, through a temporary file renamed into place, so a
        /// crash leaves either the old file or the new one; returns a handle writing at its end.
        private static func writeCompactly(_ records: [NotificationRecord], to path: String) throws(StoreServerError)
            -> FileHandle
        {
            let temporary = path + ".tmp"
            var compact = Data()
            for record in records { compact.append(Self.line(record)) }
            guard FileManager.default.createFile(atPath: temporary, contents: compact),
                rename(temporary, path) == 0, let handle = FileHandle(forWritingAtPath: path)
            else {
                throw StoreServerError(.notificationStateFailed, "cannot write the notification history \(path)")
            }
            handle.seekToEndOfFile()
            return handle
        }

        /// Rewrites the file to hold exactly `records` (dropping the notifications no longer kept).
        func rewrite(_ records: [NotificationRecord]) throws(StoreServerError) {
            let replacement = try Self.writeCompactly(records, to: path)
            try? handle.close()
            handle = replacement
        }

        private init(path: String, handle: FileHandle) {
            self.path = path
            self.handle = handle
        }

        deinit {
            try? handle.close()
        }

        /// Appends a record's new state and flushes it to disk.
        func write(_ record: NotificationRecord) throws(StoreServerError) {
            do {
                try handle.write(contentsOf: Self.line(record))
                try handle.synchronize()
            } catch {
                throw StoreServerError(
                    .notificationStateFailed, "cannot write the notification history \(path): \(error)")
            }
        }

        private static func line(_ record: NotificationRecord) -> Data {
            var data = encoded(record)
            data.append(UInt8(ascii: "\n"))
            return data
        }

        /// A record's JSON, as a line of the file holds it (without the line end) and a database's history row too.
        static func encoded(_ record: NotificationRecord) -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(record)) ?? Data()
        }
    }
#endif
