#if Server
    import StoreModels
    @testable import StoreServer
    import Testing

    @Suite struct APIRequestTests {
        /// What the writer makes of one string member.
        static func written(_ key: String, _ value: String) -> [UInt8] {
            var writer = JSONObjectWriter()
            writer.add(key, .string(value))
            return Array(writer.jsonString.utf8)
        }

        @Test func aStringMemberIsWhatTheWriterWritesWhateverByteItHoldsAndWhere() {
            // Every ASCII byte at every place of values of 0 to 19 bytes: the eight-byte words and the tail.
            for length in 0..<20 {
                for place in 0..<max(length, 1) {
                    for byte in UInt8(0)..<0x80 {
                        var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                        if length > 0 { bytes[place] = byte }
                        let value = String(decoding: bytes, as: UTF8.self)
                        #expect(
                            APIRequest.object(key: "signedTransactionInfo", string: value)
                                == Self.written("signedTransactionInfo", value), "byte \(byte) at \(place) of \(length)"
                        )
                    }
                }
            }
            for value in ["é", "a\u{2028}b", "😀\"", "eyJh.eyJi.c2ln", String(repeating: "x", count: 4096) + "\\"] {
                #expect(APIRequest.object(key: "k", string: value) == Self.written("k", value), "\(value.suffix(4))")
            }
        }

        @Test func pathsAreCutAtTheirSlashesAsCharactersCutThem() {
            let paths = [
                "", "/", "//", "/inApps/v1/transactions/1000000000000001", "/inApps//v1/", "a/b", "/é/x", "/\u{301}x",
                "/inApps/v1/transactions/\u{301}1", "/x\r\n/y",
            ]
            for path in paths {
                #expect(
                    APIRequest.segments(of: path)
                        == path.split(separator: "/", omittingEmptySubsequences: false).map(String.init), "\(path)")
            }
        }
    }
#endif
