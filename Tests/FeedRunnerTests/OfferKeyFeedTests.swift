import FeedRunner
import Foundation
import ReceiptKit
import StoreModels
import StoreSimulator
import Testing

@Suite("Feeds: offer-key gives the store an In-App Purchase key that signed offers are checked with")
struct OfferKeyFeedTests {
    static let monthly = "com.example.premium.monthly"
    static let promotional = "com.example.premium.monthly.winback"

    /// A promotional offer for the demo's monthly subscription, signed with `key` under key id `keyID` when a feed
    /// starts (its clock's start).
    static func offer(signedWith key: ES256Key, keyID: String) throws -> Data {
        let jws = try SignedOfferRequest(
            audience: .promotionalOffer, keyID: keyID, issuerID: "issuer", bundleID: AppIdentity().bundleIdentifier,
            productID: monthly, nonce: UUID().uuidString.lowercased(), issuedAt: ManualClock.defaultStart,
            offerIdentifier: promotional
        ).signed(with: key)
        return Data(jws.utf8)
    }

    static func feed(offerFile: String) -> String {
        """
        offer-key KEY1 key.p8
        observer remove app
        sk2 buy com.example.premium.monthly as first
        sk2 finish first
        expire com.example.premium.monthly
        sk2 buy com.example.premium.monthly offer com.example.premium.monthly.winback jws \(offerFile) as back
        """
    }

    @Test("An offer signed with the key the feed gives is bought; one signed with another key under its id is refused")
    func signedWithTheFeedsKey() throws {
        let key = try ES256Key.generate()
        let other = try ES256Key.generate()
        let directory = try StoreKit2OfferFeedTests.folder([
            "key.p8": Data(key.pemEncoded.utf8),
            "good.jws": try Self.offer(signedWith: key, keyID: "KEY1"),
            "forged.jws": try Self.offer(signedWith: other, keyID: "KEY1"),
        ])
        let good = try FeedRun.run(
            Self.feed(offerFile: "good.jws") + """

                expect sk2 result back success
                expect sk2 offer back promotional com.example.premium.monthly.winback
                """, file: "good.feed", baseDirectory: directory)
        #expect(good.passed, "\(good.failure?.description ?? "")")
        #expect(good.expectations == 2)

        let log = MemoryEventLog()
        let forged = try FeedRun.run(
            Self.feed(offerFile: "forged.jws") + "\nexpect sk2 result back failed", file: "forged.feed",
            baseDirectory: directory, log: log)
        #expect(forged.passed, "\(forged.failure?.description ?? "")")
        let purchase = log.lines.last { $0.contains(#""event":"sk2-purchase""#) }
        #expect(purchase?.contains("invalidOfferSignature") == true, "\(purchase ?? "")")

        // Without the key, the store checks every claim but the signature (decision 98): the forged offer is bought.
        let keyless = try FeedRun.run(
            Self.feed(offerFile: "forged.jws").replacingOccurrences(of: "offer-key KEY1 key.p8\n", with: "")
                + "\nexpect sk2 result back success", file: "keyless.feed", baseDirectory: directory)
        #expect(keyless.passed, "\(keyless.failure?.description ?? "")")
    }

    @Test("A missing, non-key or malformed offer-key line is refused before any step, naming the line and the file")
    func badKeys() throws {
        let directory = try StoreKit2OfferFeedTests.folder([
            "text.p8": Data("not a key\n".utf8), "binary.p8": Data([0xFF, 0xFE, 0x00]),
            "huge.p8": Data(repeating: UInt8(ascii: "a"), count: 70_000),
        ])
        func error(_ line: String) -> FeedError? {
            feedError { () throws(FeedError) in
                try FeedRun.run("observer remove app\n" + line, file: "keys.feed", baseDirectory: directory)
            }
        }
        let missing = error("offer-key KEY1 missing.p8")
        #expect(missing?.file == "keys.feed")
        #expect(missing?.line == 2)
        #expect(missing?.column == 16)
        #expect(missing?.message.contains("there is no file at") == true)
        #expect(missing?.message.contains("missing.p8") == true)
        let text = error("offer-key KEY1 text.p8")
        #expect(text?.line == 2)
        #expect(text?.message.contains("text.p8 is not an In-App Purchase key") == true, "\(text?.description ?? "")")
        #expect(text?.hint.contains(".p8") == true)
        #expect(error("offer-key KEY1 binary.p8")?.message.contains("is not UTF-8 text") == true)
        #expect(error("offer-key KEY1 huge.p8")?.message.contains("holds more than 65536 bytes") == true)
        let short = error("offer-key KEY1")
        #expect(short?.line == 2)
        #expect(short?.message.contains(".p8") == true, "\(short?.description ?? "")")
    }
}
