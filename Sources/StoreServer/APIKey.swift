#if Server
    import Foundation
    public import ReceiptKit

    /// An App Store Connect In-App Purchase key that may sign API tokens: its key id (the JWT header's `kid`) and the
    /// key, read from the `.p8` file App Store Connect hands out.
    public struct APIKey: Sendable {
        /// The key id, such as `2X9R4HXF34`.
        public let keyID: String
        /// The key.
        public let key: ES256Key

        /// Creates an API key.
        public init(keyID: String, key: ES256Key) {
            self.keyID = keyID
            self.key = key
        }

        /// Reads `KEYID=FILE.p8`, the form of `openstorekit serve --api-key`.
        ///
        /// - Throws: ``StoreServerError/Code/invalidOption`` for another form, ``StoreServerError/Code/apiKeyUnreadable``
        ///   for a file that cannot be read, is larger than `ReceiptFile.maximumKeyLength` or holds no ECDSA P-256 key.
        public init(argument: String) throws(StoreServerError) {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex,
                argument.index(after: equals) != argument.endIndex
            else {
                throw StoreServerError(.invalidOption, "--api-key takes KEYID=FILE.p8, not \"\(argument)\"")
            }
            let keyID = String(argument[..<equals])
            let path = String(argument[argument.index(after: equals)...])
            do throws(ReceiptError) {
                self.init(keyID: keyID, key: try ReceiptFile.readKey(atPath: path))
            } catch  where error.code == .fileUnreadable {
                throw StoreServerError(.apiKeyUnreadable, "--api-key \(keyID): cannot read \(path): \(error.detail)")
            } catch {
                throw StoreServerError(
                    .apiKeyUnreadable,
                    "--api-key \(keyID): \(path) holds no unencrypted ECDSA P-256 private key (a .p8 file from App Store "
                        + "Connect): \(error.detail)")
            }
        }
    }
#endif
