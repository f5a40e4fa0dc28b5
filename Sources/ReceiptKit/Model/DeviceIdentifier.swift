public import Foundation

/// The identifier a receipt's SHA-1 hash is bound to: a 16-byte UUID (iOS `identifierForVendor`) or a 6-byte MAC
/// address (macOS, the primary network interface).
public struct DeviceIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The raw bytes: 16 for a UUID, 6 for a MAC address.
    public let bytes: [UInt8]

    /// Creates an identifier from raw bytes.
    ///
    /// - Parameter bytes: 16 bytes (UUID) or 6 bytes (MAC address).
    /// - Throws: ``ReceiptError/Code/invalidDeviceIdentifier`` for any other length.
    public init(bytes: [UInt8]) throws(ReceiptError) {
        guard bytes.count == 16 || bytes.count == 6 else {
            throw ReceiptError(
                .invalidDeviceIdentifier,
                "a device identifier is 16 bytes (UUID) or 6 bytes (MAC address), not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// Creates an identifier from a UUID, as iOS devices use.
    ///
    /// - Parameter uuid: The device's `identifierForVendor`.
    public init(uuid: UUID) {
        let u = uuid.uuid
        self.bytes = [
            u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15,
        ]
    }

    /// Parses an identifier written as a UUID (`956328D9-CC6A-47F4-BE40-6953FB0AB6C7`), a MAC address
    /// (`6c:40:08:b5:94:5e`) or plain hexadecimal (12 or 32 digits).
    ///
    /// - Parameter text: The identifier.
    /// - Throws: ``ReceiptError/Code/invalidDeviceIdentifier`` if it is none of these.
    public init(parsing text: String) throws(ReceiptError) {
        var bytes: [UInt8] = []
        var pending: UInt8?
        for character in text.utf8 {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            case UInt8(ascii: "-"), UInt8(ascii: ":"):
                guard pending == nil else {
                    throw ReceiptError(.invalidDeviceIdentifier, "'\(text)' has a separator inside a byte")
                }
                continue
            default:
                throw ReceiptError(
                    .invalidDeviceIdentifier, "'\(text)' is not a UUID, a MAC address or hexadecimal")
            }
            if let high = pending {
                bytes.append(high << 4 | nibble)
                pending = nil
            } else {
                pending = nibble
            }
        }
        guard pending == nil else {
            throw ReceiptError(.invalidDeviceIdentifier, "'\(text)' has an odd number of hexadecimal digits")
        }
        try self.init(bytes: bytes)
    }

    /// The identifier as a UUID (upper case, dashed) or a MAC address (lower case, colons).
    public var description: String {
        let hex = bytes.map { byte -> String in
            let digits = String(byte, radix: 16, uppercase: bytes.count == 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        if bytes.count == 6 { return hex.joined(separator: ":") }
        let groups = [0..<4, 4..<6, 6..<8, 8..<10, 10..<16]
        return groups.map { hex[$0].joined() }.joined(separator: "-")
    }
}
