import Foundation
import StoreModels

/// Reads receipts and certificates from files, whatever form they come in.
///
/// Files are read through a bound: a regular file larger than the bound is refused from its size before any byte is
/// read, and any other file (a pipe, a device) is read only to one byte past the bound.
public enum ReceiptFile {
    /// The most bytes a receipt file may hold (16 MiB), DER or base64 text. App Store receipts hold kilobytes.
    public static let maximumReceiptLength = 16 << 20
    /// The most bytes a certificate file may hold (1 MiB), DER or PEM.
    public static let maximumCertificateLength = 1 << 20
    /// The most bytes a private key file may hold (64 KiB): a `.p8` key holds a few hundred.
    public static let maximumKeyLength = 64 << 10

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
        switch BoundedFile.read(atPath: path, limit: limit) {
        case .bytes(let bytes): return bytes
        case .tooLarge(let size):
            throw ReceiptError(failure, BoundedFile.tooLargeMessage(size: size, limit: limit, what: what))
        case .unreadable(let reason): throw ReceiptError(.fileUnreadable, reason)
        }
    }

    /// Reads an ECDSA P-256 private key from a PEM file, such as the `.p8` file App Store Connect hands out.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The key.
    /// - Throws: ``ReceiptError/Code/fileUnreadable`` (also for a file larger than ``maximumKeyLength``, refused before
    ///   it is read) or the error of ``ES256Key/init(pemEncoded:)``, naming the file.
    public static func readKey(atPath path: String) throws(ReceiptError) -> ES256Key {
        do throws(ReceiptError) {
            let data = try read(path, limit: maximumKeyLength, what: "a key file", failure: .fileUnreadable)
            return try ES256Key(pemEncoded: String(decoding: data, as: UTF8.self))
        } catch {
            throw error.inFile(path)
        }
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
