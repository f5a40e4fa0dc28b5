import Foundation
import ReceiptKit
import TestSupport
import Testing

#if Server
    import StoreServer
    import StoreSimulator
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
#endif

/// Decodes a base64url segment of a JWT.
private func segment(_ text: Substring) throws -> [String: Any] {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    let data = try #require(Data(base64Encoded: base64))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite("openstorekit token")
struct TokenCommandTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    @Test("prints a JWT as Apple defines it, signed with the .p8 key, on the system clock")
    func mintsAToken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let key = try ES256Key.generate()
        let keyFile = directory.file("AuthKey_TEST.p8")
        try Data(key.pemEncoded.utf8).write(to: URL(fileURLWithPath: keyFile))
        let before = Int(Date().timeIntervalSince1970)
        let run = runInProcess([
            "token", "--api-key", "TEST=\(keyFile)", "--issuer-id", Self.issuer, "--bundle-id", "com.example.app",
        ])
        let after = Int(Date().timeIntervalSince1970)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        #expect(run.out.hasSuffix("\n"))
        let token = run.out.trimmingCharacters(in: .newlines)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try segment(parts[0])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "TEST")
        #expect(header["typ"] as? String == "JWT")
        let claims = try segment(parts[1])
        #expect(claims["iss"] as? String == Self.issuer)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == "com.example.app")
        let iat = try #require(claims["iat"] as? Int)
        let exp = try #require(claims["exp"] as? Int)
        #expect(iat >= before && iat <= after)
        #expect(exp == iat + 300)
        let jws = try CompactJWS(token)
        #expect(key.isValidSignature(jws.signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
        #expect(!(try ES256Key.generate()).isValidSignature(jws.signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test("refuses a lifetime over Apple's hour, a key that is not one, and missing options")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.file("AuthKey_TEST.p8")
        try Data(try ES256Key.generate().pemEncoded.utf8).write(to: URL(fileURLWithPath: keyFile))
        let notAKey = directory.file("not-a-key.p8")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notAKey))
        // Larger than a key file may be: refused from its size (sparse, so it takes no room).
        let large = directory.file("large.p8")
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: large))
        try handle.truncate(atOffset: 1 << 20)
        try handle.close()
        let common = ["--issuer-id", Self.issuer, "--bundle-id", "com.example.app"]
        let cases: [([String], String)] = [
            (
                ["token", "--api-key", "TEST=\(large)"] + common,
                "more than the 65536 bytes (64 KiB) a key file may hold"
            ),
            (["token", "--api-key", "TEST=\(keyFile)", "--lifetime", "3601"] + common, "--lifetime takes"),
            (["token", "--api-key", "TEST=\(notAKey)"] + common, "holds no unencrypted ECDSA P-256 private key"),
            (["token"] + common, "token needs --api-key"),
            (["token", "--api-key", "TEST=\(keyFile)", "--bundle-id", "b"], "token needs --issuer-id"),
            (["token", "--api-key", "TEST=\(keyFile)", "--issuer-id", "i"], "token needs --bundle-id"),
            (["token", "--api-key", "TEST=\(keyFile)", "--url", "http://127.0.0.1:9"] + common, "--control-token"),
        ]
        for (arguments, message) in cases {
            let run = runInProcess(arguments)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.err.contains(message), "\(arguments): \(run.err)")
            #expect(run.out.isEmpty)
        }
    }

    #if Server
        @Test("with --url, the token is issued on the served store's clock, so the server accepts it after a move")
        func servedStoresClock() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let key = try ES256Key.generate()
            let keyFile = directory.file("AuthKey_TEST.p8")
            try Data(key.pemEncoded.utf8).write(to: URL(fileURLWithPath: keyFile))
            let store = SimulatedStore(lane: .manual)
            let server = try StoreServer(
                store: store,
                configuration: StoreServerConfiguration(
                    apiKeys: [APIKey(keyID: "TEST", key: key)], issuerID: Self.issuer, controlToken: "secret"))
            defer { server.stop() }
            try store.advance(by: 40 * 86_400)
            let base = server.baseURL.absoluteString
            let arguments = ["token", "--api-key", "TEST=\(keyFile)", "--issuer-id", Self.issuer]
            let served = runInProcess(arguments + ["--url", base, "--control-token", "secret"])
            #expect(served.code == 0, "\(served.err)")
            let claims = try segment(served.out.split(separator: ".")[1])
            #expect(claims["iat"] as? Int == Int(store.now.timeIntervalSince1970))
            #expect(claims["bid"] as? String == store.app.bundleIdentifier, "the served store's app by default")
            #expect(try await status(of: served.out, at: base) == 404, "accepted: no such transaction")

            let wall = runInProcess(arguments + ["--bundle-id", store.app.bundleIdentifier])
            #expect(wall.code == 0)
            #expect(try await status(of: wall.out, at: base) == 401, "expired on the store's clock")

            let wrongToken = runInProcess(arguments + ["--url", base, "--control-token", "nope"])
            #expect(wrongToken.code == 2)
            #expect(wrongToken.err.contains("401"), "\(wrongToken.err)")
        }

        /// The status of Get Transaction Info for a transaction that does not exist, with `token`.
        private func status(of token: String, at base: String) async throws -> Int {
            let url = try #require(URL(string: base + "/inApps/v1/transactions/99999"))
            var request = URLRequest(url: url, timeoutInterval: 30)
            request.setValue("Bearer " + token.trimmingCharacters(in: .newlines), forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
    #endif
}
