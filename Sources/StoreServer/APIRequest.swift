#if Server
    import Foundation
    import StoreModels

    /// Helpers that read an App Store Server API request's parameters the way Apple validates them.
    enum APIRequest {
        /// A transaction identifier: 1 to 19 digits (a UInt64), else `nil`.
        static func transactionID(_ text: String) -> UInt64? {
            guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                return nil
            }
            return UInt64(text)
        }

        /// A path's segments between its slashes, empty ones included, as `split(separator: "/")` cuts them.
        ///
        /// An ASCII path is cut at its `/` bytes, which is the same cut without walking it character by character; any
        /// other path is cut by characters, where a `/` followed by a combining mark is not a separator.
        static func segments(of path: String) -> [String] {
            guard path.utf8.allSatisfy({ $0 < 0x80 }) else {
                return path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            }
            return path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        }

        /// Milliseconds since 1970 from a query value or JSON number; `nil` when not a whole number.
        static func milliseconds(_ text: String) -> Int64? {
            guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                return nil
            }
            return Int64(text)
        }

        /// Decodes a JSON body; a body that is not the expected JSON is `GeneralBadRequest`.
        static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws(APIError) -> T {
            do {
                return try JSONDecoder().decode(T.self, from: Data(body.isEmpty ? Array("{}".utf8) : body))
            } catch {
                throw APIError(
                    APIError.generalBadRequest.errorCode,
                    "Invalid request. The body is not valid JSON for this endpoint.")
            }
        }

        /// The JSON object `{"key":"value"}` of one string member, as bytes: what ``StoreModels/JSONObjectWriter``
        /// writes for it, byte for byte.
        ///
        /// A value with nothing to escape (no control character, quote or backslash: a compact JWS, which is base64url
        /// and dots) is copied as it is, after a scan eight bytes at a time; the writer's own scan goes byte by byte
        /// and cost more than the rest of Get Transaction Info for a JWS of 4 KB. Anything else is written by the
        /// writer, escaped.
        static func object(key: String, string value: String) -> [UInt8] {
            var value = value
            var writer = JSONObjectWriter()
            guard !value.withUTF8(needsEscaping) else {
                writer.add(key, .string(value))
                return Array(writer.jsonString.utf8)
            }
            writer.add(key, json: #""""#)
            var body = Array(writer.jsonString.utf8)  // {"key":""}
            body.reserveCapacity(body.count + value.utf8.count)
            value.withUTF8 { body.insert(contentsOf: $0, at: body.count - 2) }
            return body
        }

        /// A string as a JSON string literal, quotes included: a value with nothing to escape (a compact JWS) copied
        /// as it is after the scan eight bytes at a time of ``object(key:string:)``, any other escaped by
        /// ``StoreModels/JSONValue/escaped(_:)``, as ``StoreModels/JSONObjectWriter`` escapes.
        static func quoted(_ value: String) -> String {
            var value = value
            let plain = !value.withUTF8(needsEscaping)
            var text = "\""
            text.reserveCapacity(value.utf8.count + 2)
            text += plain ? value : JSONValue.escaped(value)
            text += "\""
            return text
        }

        /// Whether any byte is one JSON escapes in a string: below 0x20, `"` (0x22) or `\` (0x5C).
        private static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            // Exact tests over a word: whether a byte is below n (n <= 128), and whether a byte is zero.
            func hasByte(below n: UInt64, in word: UInt64) -> Bool { (word &- ones &* n) & ~word & highs != 0 }
            func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while offset + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if hasByte(below: 0x20, in: word) || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C)) {
                    return true
                }
                offset += 8
            }
            return raw[offset...].contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
        }

        /// Encodes a response body.
        static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            guard let data = try? encoder.encode(value) else { return APIError.generalInternal.response }
            return .json(status, [UInt8](data))
        }
    }
#endif
