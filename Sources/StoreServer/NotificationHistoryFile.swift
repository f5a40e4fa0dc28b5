#if Server
    import Foundation

    /// The notification history kept across restarts: a JSON Lines file where each line is a ``NotificationRecord`` as
    /// it stands after a change (the last line of a notification wins). Rewritten compactly when opened, without the
    /// records `keep` turns down, and by ``rewrite(_:)``.
    final class NotificationHistoryFile: @unchecked Sendable {
        // @unchecked: used only under NotificationSender's mutex.
        let path: String
        private var handle: FileHandle

        /// Opens the file (creating it) and returns it with the records it holds that `keep` accepts, in the order they
        /// were made.
        static func open(path: String, keep: (NotificationRecord) -> Bool) throws(StoreServerError) -> (
            NotificationHistoryFile, [NotificationRecord]
        ) {
            var records: [NotificationRecord] = []
            var index: [String: Int] = [:]
            if FileManager.default.fileExists(atPath: path) {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw StoreServerError(.notificationStateFailed, "cannot read the notification history \(path)")
                }
                let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let decoder = JSONDecoder()
                for (number, line) in lines.enumerated() where !line.isEmpty {
                    guard let record = try? decoder.decode(NotificationRecord.self, from: Data(line)) else {
                        // A last line cut short by a crash: the change it held was never acknowledged.
                        if number == lines.count - 1 { break }
                        throw StoreServerError(
                            .notificationStateFailed,
                            "\(path), line \(number + 1): not a notification record; the file is left as it is "
                                + "(move it aside to start a new history)")
                    }
                    if let existing = index[record.notificationUUID] {
                        records[existing] = record
                    } else {
                        index[record.notificationUUID] = records.count
                        records.append(record)
                    }
                }
            }
            records.removeAll { !keep($0) }
            let handle = try writeCompactly(records, to: path)
            return (NotificationHistoryFile(path: path, handle: handle), records)
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
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var data = (try? encoder.encode(record)) ?? Data()
            data.append(UInt8(ascii: "\n"))
            return data
        }
    }
#endif
