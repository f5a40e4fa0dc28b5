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

        /// The JSON object `{"key":"jws"}` of one string member whose value is a JWS, as bytes.
        ///
        /// A compact JWS is base64url and dots, which JSON never escapes: its bytes are copied as they are, without
        /// the escaping scan of ``StoreModels/JSONObjectWriter`` (which costs more than the rest of Get Transaction
        /// Info for a JWS of 4 KB). Anything else is written by the writer, escaped.
        static func object(key: String, jws: String) -> [UInt8] {
            var value = jws
            let isCompact = value.withUTF8 { bytes in
                compactAlphabet.withUnsafeBufferPointer { alphabet in bytes.allSatisfy { alphabet[Int($0)] } }
            }
            var writer = JSONObjectWriter()
            guard isCompact else {
                writer.add(key, .string(jws))
                return Array(writer.jsonString.utf8)
            }
            writer.add(key, json: #""""#)
            var body = Array(writer.jsonString.utf8)  // {"key":""}
            body.reserveCapacity(body.count + value.utf8.count)
            value.withUTF8 { body.insert(contentsOf: $0, at: body.count - 2) }
            return body
        }

        /// Whether each byte may appear in a compact JWS: base64url (`A-Z`, `a-z`, `0-9`, `-`, `_`) and `.`.
        private static let compactAlphabet: [Bool] = (0...255).map { byte in
            switch UInt8(byte) {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default: false
            }
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
