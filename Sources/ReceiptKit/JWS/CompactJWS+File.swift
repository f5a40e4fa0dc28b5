import Foundation

extension CompactJWS {
    /// Reads and decodes a `.jws` file (the compact JWS as text, a trailing newline allowed).
    ///
    /// - Parameter path: The file's path.
    /// - Throws: ``ReceiptError/Code/fileUnreadable``, or ``ReceiptError/Code/invalidJWS`` if the file is not a
    ///   compact JWS (or is larger than ``maximumLength``, which is refused before it is read), naming the file.
    public init(contentsOfFile path: String) throws(ReceiptError) {
        do throws(ReceiptError) {
            // A regular file larger than a JWS may be is refused from its size; anything else is read to one byte
            // past the limit.
            let bytes = try ReceiptFile.read(
                path, limit: Self.maximumLength, what: "a JWS file", failure: .invalidJWS)
            try self.init(bytes: bytes)
        } catch {
            throw error.inFile(path)
        }
    }
}
