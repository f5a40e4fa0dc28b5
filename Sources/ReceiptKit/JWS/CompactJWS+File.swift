import Foundation

extension CompactJWS {
    /// Reads and decodes a `.jws` file (the compact JWS as text, a trailing newline allowed).
    ///
    /// - Parameter path: The file's path.
    /// - Throws: ``ReceiptError/Code/fileUnreadable``, or ``ReceiptError/Code/invalidJWS`` if the file is not a
    ///   compact JWS (or is larger than ``maximumLength``, which is refused before it is read), naming the file.
    public init(contentsOfFile path: String) throws(ReceiptError) {
        do throws(ReceiptError) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ReceiptError(.fileUnreadable, "no such file")
            }
            guard !isDirectory.boolValue else {
                throw ReceiptError(.fileUnreadable, "cannot read a directory as a file")
            }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ReceiptError(.fileUnreadable, "cannot open the file for reading")
            }
            defer { try? handle.close() }
            let data: Data
            do {
                // One byte more than the limit is enough to know the file is too large, whatever it is (a FIFO too).
                data = try handle.read(upToCount: Self.maximumLength + 1) ?? Data()
            } catch {
                throw ReceiptError(.fileUnreadable, "cannot read the file: \(error.localizedDescription)")
            }
            try self.init(bytes: [UInt8](data))
        } catch {
            throw error.inFile(path)
        }
    }
}
