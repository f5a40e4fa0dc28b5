#if Server
    import Foundation

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

        /// Encodes a response body.
        static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            guard let data = try? encoder.encode(value) else { return APIError.generalInternal.response }
            return .json(status, [UInt8](data))
        }
    }
#endif
