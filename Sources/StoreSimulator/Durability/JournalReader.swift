import Foundation

/// Reads the values of a journal entry written by a ``JournalWriter``, failing with the offset of whatever is
/// missing or malformed.
struct JournalReader {
    /// Why an entry cannot be read: what was expected, and at which byte offset.
    struct Failure: Error, CustomStringConvertible {
        let offset: Int
        let message: String

        var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    /// Reads `bytes`, which must stay valid while the reader is used (inside `withUnsafeBytes`).
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int, _ what: @autoclosure () -> String) throws(Failure)
        -> UnsafeRawBufferPointer
    {
        guard count >= 0, bytes.count - offset >= count else {
            throw Failure(offset: offset, message: "the entry ends inside \(what())")
        }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    mutating func byte(_ what: @autoclosure () -> String) throws(Failure) -> UInt8 {
        guard offset < bytes.count else { throw Failure(offset: offset, message: "the entry ends inside \(what())") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bool(_ what: @autoclosure () -> String) throws(Failure) -> Bool {
        let start = offset
        switch try byte(what()) {
        case 0: return false
        case 1: return true
        case let other: throw Failure(offset: start, message: "\(what()) is \(other), not a boolean (0 or 1)")
        }
    }

    mutating func uint64(_ what: @autoclosure () -> String) throws(Failure) -> UInt64 {
        UInt64(littleEndian: try take(8, what()).loadUnaligned(as: UInt64.self))
    }

    mutating func int64(_ what: @autoclosure () -> String) throws(Failure) -> Int64 {
        Int64(bitPattern: try uint64(what()))
    }

    mutating func int(_ what: @autoclosure () -> String) throws(Failure) -> Int {
        let start = offset
        let value = try int64(what())
        guard let result = Int(exactly: value) else {
            throw Failure(offset: start, message: "\(what()) \(value) does not fit this platform's Int")
        }
        return result
    }

    mutating func double(_ what: @autoclosure () -> String) throws(Failure) -> Double {
        Double(bitPattern: try uint64(what()))
    }

    mutating func date(_ what: @autoclosure () -> String) throws(Failure) -> Date {
        let start = offset
        let seconds = try double(what())
        guard seconds.isFinite else { throw Failure(offset: start, message: "\(what()) is not a finite time") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    mutating func string(_ what: @autoclosure () -> String) throws(Failure) -> String {
        let count = try length(what())
        let start = offset
        let utf8 = try take(count, what())
        guard let text = String(validating: utf8.assumingMemoryBound(to: UInt8.self), as: UTF8.self) else {
            throw Failure(offset: start, message: "\(what()) is not valid UTF-8")
        }
        return text
    }

    /// A string as ``string(_:)`` reads it, shared with an equal one read before through the same cache (product
    /// and account identifiers repeat from record to record), so that it is not allocated again.
    mutating func string(_ what: @autoclosure () -> String, sharing cache: inout StringCache) throws(Failure) -> String
    {
        let count = try length(what())
        let start = offset
        let utf8 = try take(count, what()).assumingMemoryBound(to: UInt8.self)
        if let shared = cache.string(equalTo: utf8) { return shared }
        let text: String
        if Self.isASCII(utf8) {
            text = String(decoding: utf8, as: UTF8.self)  // ASCII is valid UTF-8: decoding repairs nothing
        } else {
            guard let valid = String(validating: utf8, as: UTF8.self) else {
                throw Failure(offset: start, message: "\(what()) is not valid UTF-8")
            }
            text = valid
        }
        cache.remember(text, utf8)
        return text
    }

    /// Whether every byte is below 0x80 (the identifiers a store keeps mostly are).
    private static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for byte in utf8 { any |= byte }
        return any < 0x80
    }

    mutating func optionalString(_ what: @autoclosure () -> String, sharing cache: inout StringCache) throws(Failure)
        -> String?
    {
        try bool("the presence of \(what())") ? try string(what(), sharing: &cache) : nil
    }

    mutating func optionalString(_ what: @autoclosure () -> String) throws(Failure) -> String? {
        try bool("the presence of \(what())") ? try string(what()) : nil
    }

    mutating func blob(_ what: @autoclosure () -> String) throws(Failure) -> [UInt8] {
        let count = try length(what())
        return Array(try take(count, what()))
    }

    private mutating func length(_ what: @autoclosure () -> String) throws(Failure) -> Int {
        Int(UInt32(littleEndian: try take(4, "the length of \(what())").loadUnaligned(as: UInt32.self)))
    }
}
