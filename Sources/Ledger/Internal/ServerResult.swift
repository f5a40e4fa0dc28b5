#if Postgres
    internal import CLibPQ

    /// The result of one statement on a ``ServerConnection``: the sole owner of one `PGresult`, cleared in `deinit`.
    /// Values of results in binary format are read as PostgreSQL sends them (integers and doubles big-endian, text
    /// and `bytea` as their bytes).
    final class ServerResult {
        private let handle: OpaquePointer

        init(_ handle: OpaquePointer) { self.handle = handle }

        deinit { PQclear(handle) }

        /// The number of rows.
        var rowCount: Int { Int(PQntuples(handle)) }

        /// The number of columns.
        var columnCount: Int { Int(PQnfields(handle)) }

        /// The rows an INSERT, UPDATE or DELETE changed.
        var changes: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

        /// Whether the value at `row`, `column` is NULL.
        func isNull(_ column: Int32, row: Int = 0) -> Bool { PQgetisnull(handle, Int32(row), column) != 0 }

        /// Calls `body` with the bytes of the value at `row`, `column`, valid only during the call.
        func withBytes<R>(_ column: Int32, row: Int = 0, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            let length = Int(PQgetlength(handle, Int32(row), column))
            let base = PQgetvalue(handle, Int32(row), column).map { UnsafeRawPointer($0) }
            return try body(UnsafeRawBufferPointer(start: length == 0 ? nil : base, count: length))
        }

        /// The value as an integer: a binary `int2`, `int4`, `int8` or `bool` (0 for NULL).
        func int64(_ column: Int32, row: Int = 0) -> Int64 {
            withBytes(column, row: row) { bytes in
                var value: Int64 = 0
                for byte in bytes { value = value << 8 | Int64(byte) }
                // Sign-extend a shorter integer.
                let shift = 64 - 8 * bytes.count
                return bytes.isEmpty || shift == 0 ? value : (value << shift) >> shift
            }
        }

        /// The value as a double: a binary `float8`.
        func double(_ column: Int32, row: Int = 0) -> Double {
            Double(bitPattern: UInt64(bitPattern: int64(column, row: row)))
        }

        /// The value as text (UTF-8).
        func text(_ column: Int32, row: Int = 0) -> String {
            withBytes(column, row: row) { String(decoding: $0, as: UTF8.self) }
        }

        /// A copy of the value's bytes.
        func bytes(_ column: Int32, row: Int = 0) -> [UInt8] {
            withBytes(column, row: row) { Array($0) }
        }
    }
#endif
