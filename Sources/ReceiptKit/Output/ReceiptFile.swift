import Foundation

/// Reads receipts and certificates from files, whatever form they come in.
///
/// Files are read through a bound: a regular file larger than the bound is refused from its size before any byte is
/// read, and any other file (a pipe, a device) is read only to one byte past the bound.
public enum ReceiptFile {
    /// The most bytes a receipt file may hold (16 MiB), DER or base64 text. App Store receipts hold kilobytes.
    public static let maximumReceiptLength = 16 << 20
    /// The most bytes a certificate file may hold (1 MiB), DER or PEM.
    public static let maximumCertificateLength = 1 << 20

    /// Reads a receipt file that holds DER (binary) or base64 text (with or without line breaks).
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The receipt's DER/BER bytes, not yet verified.
    /// - Throws: ``ReceiptError/Code/fileUnreadable`` (also for a file larger than ``maximumReceiptLength``,
    ///   refused before it is read) or ``ReceiptError/Code/invalidEncoding``, naming the file.
    public static func readReceipt(atPath path: String) throws(ReceiptError) -> [UInt8] {
        do throws(ReceiptError) {
            return try decodeReceipt(
                read(path, limit: maximumReceiptLength, what: "a receipt file", failure: .fileUnreadable))
        } catch {
            throw error.inFile(path)
        }
    }

    /// Returns receipt bytes as DER: unchanged if they are DER (start with a SEQUENCE), decoded if they are base64.
    ///
    /// - Parameter data: The bytes of a receipt file, or of standard input.
    /// - Returns: The receipt's DER/BER bytes.
    /// - Throws: ``ReceiptError/Code/invalidEncoding`` if the bytes are neither.
    public static func decodeReceipt(_ data: [UInt8]) throws(ReceiptError) -> [UInt8] {
        guard let first = data.first else {
            throw ReceiptError(.invalidEncoding, "the receipt is empty")
        }
        if first == 0x30 { return data }
        guard let decoded = decodeBase64(data) else {
            throw ReceiptError(
                .invalidEncoding,
                "the receipt is neither DER (which starts with byte 0x30) nor base64 text; pass the receipt file "
                    + "as the App Store or StoreKit writes it")
        }
        return decoded
    }

    /// Reads a certificate file in DER (`.cer`) or PEM (`-----BEGIN CERTIFICATE-----`).
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The certificate (the first one, for a PEM file holding several).
    /// - Throws: ``ReceiptError/Code/fileUnreadable`` (also for a file larger than ``maximumCertificateLength``) or
    ///   ``ReceiptError/Code/certificateUnreadable``, naming the file.
    public static func readCertificate(atPath path: String) throws(ReceiptError) -> X509Certificate {
        do throws(ReceiptError) {
            let data = try read(
                path, limit: maximumCertificateLength, what: "a certificate file", failure: .fileUnreadable)
            if data.first == 0x30 { return try X509Certificate(derEncoded: data) }
            guard let text = String(validating: data, as: UTF8.self), text.contains("-----BEGIN CERTIFICATE-----")
            else {
                throw ReceiptError(
                    .certificateUnreadable,
                    "the file is neither a DER certificate (which starts with byte 0x30) nor PEM "
                        + "(-----BEGIN CERTIFICATE-----)")
            }
            return try X509Certificate(pemEncoded: text)
        } catch {
            throw error.inFile(path)
        }
    }

    /// Reads at most `limit` bytes of a file: a regular file larger than that is refused from its size, before it is
    /// read; anything else is read to one byte past the limit and refused then.
    ///
    /// - Throws: `failure` naming the limit for a file too large; ``ReceiptError/Code/fileUnreadable`` when there
    ///   is no file, it is a directory, or it cannot be opened or read.
    static func read(
        _ path: String, limit: Int, what: String, failure: ReceiptError.Code
    ) throws(ReceiptError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReceiptError(.fileUnreadable, "no such file")
        }
        guard !isDirectory.boolValue else {
            throw ReceiptError(.fileUnreadable, "cannot read a directory as a file")
        }
        func tooLarge(_ size: String) -> ReceiptError {
            ReceiptError(
                failure,
                "the file holds \(size) bytes, more than the \(limit) bytes (\(limit >> 20) MiB) \(what) may hold")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if (attributes?[.type] as? FileAttributeType) == .typeRegular,
            let size = (attributes?[.size] as? NSNumber)?.int64Value, size > Int64(limit)
        {
            throw tooLarge("\(size)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ReceiptError(.fileUnreadable, "cannot open the file for reading")
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - bytes.count))
            } catch {
                throw ReceiptError(.fileUnreadable, "cannot read the file: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return bytes }
            bytes.append(contentsOf: chunk)
        }
        throw tooLarge("more than \(limit)")
    }

    /// Decodes base64 text, ignoring whitespace and tolerating missing padding; nil if it is not base64.
    static func decodeBase64(_ data: [UInt8]) -> [UInt8]? {
        var text: [UInt8] = []
        text.reserveCapacity(data.count)
        for byte in data {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                text.append(byte)
            default: return nil
            }
        }
        guard !text.isEmpty else { return nil }
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        guard let decoded = Data(base64Encoded: Data(text)), !decoded.isEmpty else { return nil }
        return [UInt8](decoded)
    }
}
