import FeedRunner
import Foundation
import OpenStoreKitTest
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("Feeds: StoreKit 2 purchases with a win-back or signed offer, and expect sk2 offer", .timeLimit(.minutes(1)))
struct StoreKit2OfferFeedTests {
    static let monthly = "com.example.premium.monthly"
    static let promotional = "com.example.premium.monthly.winback"

    /// A fresh folder holding `files` (name and contents), for a feed whose steps name them.
    static func folder(_ files: [String: Data]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sk2-offers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    /// The test signer for the feed's app (the default app of a feed's store).
    static let signer = PromotionalOfferSigner.test(appBundleID: AppIdentity().bundleIdentifier)

    /// A JWS signed when a feed starts (its clock's start), for the demo's monthly subscription.
    static func signed(_ audience: SignedOfferRequest.Audience, offerID: String? = nil, allowIntroductory: Bool? = nil)
        throws -> Data
    {
        let jws = try signer.signedRequest(
            audience, productID: monthly, issuedAt: ManualClock.defaultStart, offerID: offerID,
            transactionID: audience == .introductoryOfferEligibility
                ? SignedPayloadMapping.appTransactionID(account: SimulatedStore.defaultAccount) : nil,
            allowIntroductoryOffer: allowIntroductory)
        return Data((jws + "\n").utf8)
    }

    @Test("The new buy options and expect sk2 offer parse; the offer types are the feed's spellings")
    func goodLines() throws {
        let directory = try Self.folder(["promo.jws": Data("a.b.c".utf8)])
        let feed = """
            sk2 buy com.example.premium.monthly offer com.example.premium.monthly.winback jws promo.jws as a
            sk2 buy com.example.premium.monthly intro-eligibility jws promo.jws quantity 1 as b
            expect sk2 offer a promotional com.example.premium.monthly.winback
            expect sk2 offer b introductory
            expect sk2 offer com.example.premium.monthly none
            expect sk2 offer a win-back
            expect sk2 offer a code
            """
        #expect(try FeedParser(file: "offers.feed", baseDirectory: directory).validate(feed) == 7)
    }

    @Test(
        "A malformed offer option or expectation is refused with its line, column and what to write",
        arguments: [
            ("sk2 buy com.example.pro offer", "missing a promotional offer identifier", "add"),
            ("sk2 buy com.example.pro offer x", "missing jws FILE after offer ID", "add"),
            (
                "sk2 buy com.example.pro offer x file p.jws", "offer ID takes jws FILE, not \"file\"",
                "write offer ID jws"
            ),
            (
                "sk2 buy com.example.pro intro-eligibility p.jws", "takes jws FILE, not \"p.jws\"",
                "write intro-eligibility jws"
            ),
            ("sk2 buy com.example.pro win-back", "missing a win-back offer identifier", "add"),
            ("sk2 buy com.example.pro winback=x", "unknown sk2 buy option", "win-back ID, offer ID jws FILE"),
            ("expect sk2 offer com.example.pro trial", "\"trial\" is not an offer type", "win-back"),
            ("expect sk2 offer com.example.pro none x", "none has no identifier", "REF none"),
            ("expect sk2 offer com.example.pro promotional x y", "unexpected \"y\"", "remove it"),
            ("expect sk2 offer", "missing", "add"),
        ])
    func badLines(line: String, message: String, hint: String) {
        let error = feedError { () throws(FeedError) in
            try FeedRun.run("observer remove app\n" + line, file: "bad.feed")
        }
        #expect(error?.file == "bad.feed")
        #expect(error?.line == 2)
        #expect(error?.message.contains(message) == true, "\(error?.description ?? "no error")")
        #expect(error?.hint.contains(hint) == true, "\(error?.description ?? "no error")")
    }

    @Test("A win-back offer the catalog's product lacks is refused before any step runs, listing its offers")
    func unknownWinBack() throws {
        let directory = try Self.folder(["winback.storekit": WinBackFixture.data])
        let log = MemoryEventLog()
        let error = feedError { () throws(FeedError) in
            try FeedRun.run(
                "config winback.storekit\nsk2 buy com.example.winback.monthly win-back wb.none", file: "wb.feed",
                baseDirectory: directory, log: log)
        }
        #expect(error?.line == 2)
        #expect(error?.column == 46)
        #expect(error?.message == "com.example.winback.monthly has no win-back offer \"wb.none\"")
        #expect(error?.hint == "its win-back offers are wb.half, wb.free, wb.high")
        #expect(log.lines.isEmpty)
        let demo = feedError { () throws(FeedError) in try FeedRun.run("sk2 buy com.example.pro win-back x", file: "d")
        }
        #expect(demo?.hint.contains("has no win-back offers") == true)
    }

    @Test("A missing, huge, empty or non-text signed offer file is refused naming the feed's line and the path")
    func badFiles() throws {
        let directory = try Self.folder([
            "huge.jws": Data(repeating: UInt8(ascii: "a"), count: 70_000), "empty.jws": Data(" \n".utf8),
            "binary.jws": Data([0xFF, 0xFE, 0x00]),
        ])
        func error(_ file: String) -> FeedError? {
            feedError { () throws(FeedError) in
                try FeedRun.run(
                    "observer remove app\nsk2 buy com.example.premium.monthly intro-eligibility jws \(file)",
                    file: "files.feed", baseDirectory: directory)
            }
        }
        let missing = error("missing.jws")
        #expect(missing?.line == 2)
        #expect(missing?.column == 59)
        #expect(missing?.message.contains("there is no file at") == true)
        #expect(missing?.message.contains("missing.jws") == true)
        #expect(error("huge.jws")?.message.contains("holds more than 65536 bytes") == true)
        #expect(error("empty.jws")?.message.contains("empty.jws is empty") == true)
        #expect(error("binary.jws")?.message.contains("binary.jws is not UTF-8 text") == true)
        #expect([missing, error("huge.jws"), error("empty.jws")].allSatisfy { $0?.line == 2 })
    }

    @Test("A feed's signed offer files may hold 16 MiB together; past that the line is refused")
    func totalBound() throws {
        let count = (16 << 20) / 65_536 + 1
        var files: [String: Data] = [:]
        for index in 0..<count { files["\(index).jws"] = Data(repeating: UInt8(ascii: "a"), count: 65_536) }
        let directory = try Self.folder(files)
        let feed = (0..<count).map { "sk2 buy com.example.pro intro-eligibility jws \($0).jws" }
        let error = feedError { () throws(FeedError) in
            try FeedRun.run(feed.joined(separator: "\n"), file: "many.feed", baseDirectory: directory)
        }
        #expect(error?.code == .outOfBounds)
        #expect(error?.line == count)
        #expect(error?.message == "the signed offer files hold more than 16777216 bytes in all")
        // One file fewer is within the bound.
        let within = try FeedParser(file: "many.feed", baseDirectory: directory)
            .validate(feed.dropLast().joined(separator: "\n"))
        #expect(within == count - 1)
    }

    @Test("A lapsed subscriber buys with a win-back offer; expect sk2 offer reads the transaction's offer")
    func winBackFeed() throws {
        let directory = try Self.folder(["winback.storekit": WinBackFixture.data])
        let feed = """
            config winback.storekit
            observer remove app
            sk2 buy com.example.winback.monthly as first
            sk2 finish first
            expect sk2 offer first none
            advance 40d
            expire com.example.winback.monthly
            advance 31d
            sk2 buy com.example.winback.monthly win-back wb.half as back
            expect sk2 result back success
            expect sk2 offer back win-back wb.half
            expect sk2 offer com.example.winback.monthly win-back
            """
        let log = MemoryEventLog()
        let result = try FeedRun.run(feed, file: "winback.feed", baseDirectory: directory, log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.expectations == 4)

        let wrong = try FeedRun.run(
            feed + "\nexpect sk2 offer back win-back wb.free", file: "winback.feed", baseDirectory: directory)
        #expect(wrong.failure?.line == 13)
        #expect(wrong.failure?.message == "expected back's offer win-back wb.free, it is win-back wb.half")
    }

    @Test("A win-back offer the customer may not redeem fails the purchase as StoreKit 2 fails it")
    func ineligibleWinBack() throws {
        let directory = try Self.folder(["winback.storekit": WinBackFixture.data])
        let log = MemoryEventLog()
        let result = try FeedRun.run(
            """
            config winback.storekit
            observer remove app
            sk2 buy com.example.winback.monthly win-back wb.half as back
            expect sk2 result back failed
            """, file: "ineligible.feed", baseDirectory: directory, log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let purchase = log.lines.first { $0.contains(#""event":"sk2-purchase""#) }
        #expect(purchase?.contains("ineligibleForOffer") == true, "\(purchase ?? "")")
    }

    @Test("A promotional offer and introductory offer eligibility, each signed in a file beside the feed, apply")
    func signedOfferFeed() throws {
        let directory = try Self.folder([
            "promo.jws": try Self.signed(.promotionalOffer, offerID: Self.promotional),
            "intro.jws": try Self.signed(.introductoryOfferEligibility, allowIntroductory: false),
        ])
        let feed = """
            observer remove app
            sk2 buy com.example.premium.monthly intro-eligibility jws intro.jws as first
            expect sk2 offer first none
            sk2 finish first
            expire com.example.premium.monthly
            sk2 buy com.example.premium.monthly offer com.example.premium.monthly.winback jws promo.jws as back
            expect sk2 result back success
            expect sk2 offer back promotional com.example.premium.monthly.winback
            """
        let result = try FeedRun.run(feed, file: "signed.feed", baseDirectory: directory)
        #expect(result.passed, "\(result.failure?.description ?? "")")

        // Without the eligibility JWS the new customer gets the introductory offer.
        let plain = try FeedRun.run(
            "observer remove app\nsk2 buy com.example.premium.monthly as first\nexpect sk2 offer first introductory",
            file: "plain.feed")
        #expect(plain.passed, "\(plain.failure?.description ?? "")")
    }

    @Test("A signed offer JWS the store refuses fails the purchase with StoreKit 2's error")
    func refusedSignedOffer() throws {
        let directory = try Self.folder([
            "other.jws": try Self.signed(.promotionalOffer, offerID: "com.example.other.offer")
        ])
        let log = MemoryEventLog()
        let result = try FeedRun.run(
            """
            observer remove app
            sk2 buy com.example.premium.monthly offer com.example.premium.monthly.winback jws other.jws as back
            expect sk2 result back failed
            """, file: "refused.feed", baseDirectory: directory, log: log)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let purchase = log.lines.first { $0.contains(#""event":"sk2-purchase""#) }
        #expect(purchase?.contains("invalidOfferIdentifier") == true, "\(purchase ?? "")")
    }
}
