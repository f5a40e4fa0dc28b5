import Foundation
import ReceiptKit
import TestSupport
import Testing

@Suite("App Store and Xcode receipt vectors", .requiresSharedData)
struct AppStoreVectorTests {
    @Test(
        "every App Store receipt verifies against Apple Inc. Root at its creation date",
        arguments: Fixtures.appStoreReceipts)
    func verifiesAtCreationDate(name: String) throws {
        let verifier = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()])
        let verified = try verifier.verify(Fixtures.vector(name))
        #expect(verified.verificationDate == verified.receipt.creationDate)
        #expect(verified.certificateChain.count == 3)
        #expect(verified.certificateChain.last == (try Fixtures.appleRoot()))
        #expect(!verified.isXcodeReceipt)
    }

    @Test(
        "every App Store receipt fails at the end of 2026 with an expired certificate",
        arguments: Fixtures.appStoreReceipts)
    func failsAfterExpiry(name: String) throws {
        let verifier = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()])
        let receipt = try Fixtures.vector(name)
        #expect(throws: ReceiptError(.certificateExpired)) {
            try verifier.verify(receipt, options: .init(time: .date(Fixtures.after2026Expiry)))
        }
    }
}

@Suite("Receipt vectors: parsed fields", .requiresSharedData)
struct VectorFieldTests {
    static func date(_ seconds: Int64) -> Date {
        Date(receiptMilliseconds: seconds * 1000)
    }

    static func verified(_ name: String, _ options: ReceiptVerificationOptions = .init()) throws -> AppReceipt {
        try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()]).verify(Fixtures.vector(name), options: options)
            .receipt
    }

    @Test("RevenueCat sample: the values in the vectors README")
    func revenueCat() throws {
        let receipt = try Self.verified("revenuecat_base64encodedreceiptsample1.der")
        #expect(receipt.receiptType == "ProductionSandbox")
        #expect(receipt.environment == .sandbox)
        #expect(receipt.bundleIdentifier == "com.revenuecat.sampleapp")
        #expect(receipt.applicationVersion == "4")
        #expect(receipt.originalApplicationVersion == "1.0")
        #expect(receipt.expirationDate == nil)
        #expect(receipt.creationDate == Self.date(1_595_439_548))
        #expect(receipt.inAppPurchases.count == 9)
        let first = receipt.inAppPurchases[0]
        #expect(first.quantity == 1)
        #expect(first.productIdentifier == "com.revenuecat.monthly_4.99.1_week_intro")
        #expect(first.transactionIdentifier == "1000000692879214")
        #expect(first.originalTransactionIdentifier == "1000000692878476")
        #expect(first.productType == .autoRenewableSubscription)
        #expect(first.purchaseDate == Self.date(1_594_755_400))
        #expect(first.originalPurchaseDate == Self.date(1_594_755_207))
        #expect(first.subscriptionExpirationDate == Self.date(1_594_755_700))
        #expect(first.cancellationDate == nil)
        #expect(!first.isTrialPeriod)
        #expect(!first.isInIntroOfferPeriod)
        #expect(first.webOrderLineItemIdentifier == 1_000_000_054_042_695)
        let seventh = receipt.inAppPurchases[7]
        #expect(seventh.productIdentifier == "com.revenuecat.annual_39.99.2_week_intro")
        #expect(seventh.transactionIdentifier == "1000000696553650")
        #expect(seventh.purchaseDate == Self.date(1_595_439_546))
        #expect(seventh.subscriptionExpirationDate == Self.date(1_595_443_146))
        #expect(seventh.webOrderLineItemIdentifier == 1_000_000_054_044_800)
        let eighth = receipt.inAppPurchases[8]
        #expect(eighth.transactionIdentifier == "1000000692878476")
        #expect(eighth.purchaseDate == Self.date(1_594_755_206))
        #expect(eighth.subscriptionExpirationDate == Self.date(1_594_755_386))
        #expect(eighth.isTrialPeriod)
        #expect(eighth.webOrderLineItemIdentifier == 1_000_000_054_042_694)
        #expect(
            try Fixtures.vector("revenuecat_base64encodedreceiptsample1.b64")
                == Fixtures.vector("revenuecat_base64encodedreceiptsample1.der"))
    }

    @Test("RevenueCat sample: every in_app field equals Apple's own verifyReceipt JSON")
    func revenueCatMatchesAppleJSON() throws {
        let receipt = try Self.verified("revenuecat_base64encodedreceiptsample1.der")
        let appleData = try Data(
            contentsOf: URL(fileURLWithPath: Fixtures.vectorPath("revenuecat_verifyReceiptSample1.json")))
        let apple = try #require(try JSONSerialization.jsonObject(with: appleData) as? [String: Any])
        let appleReceipt = try #require(apple["receipt"] as? [String: Any])
        let ours = try #require(
            try JSONSerialization.jsonObject(with: Data(ReceiptJSON.receiptObject(receipt).utf8)) as? [String: Any])

        for key in [
            "bundle_id", "application_version", "original_application_version", "receipt_creation_date",
            "receipt_creation_date_ms", "receipt_type",
        ] {
            #expect(ours[key] as? String == appleReceipt[key] as? String, "receipt field \(key)")
        }
        let appleInApp = try #require(appleReceipt["in_app"] as? [[String: Any]])
        let ourInApp = try #require(ours["in_app"] as? [[String: Any]])
        #expect(ourInApp.count == appleInApp.count)
        for appleEntry in appleInApp {
            let transaction = try #require(appleEntry["transaction_id"] as? String)
            let ourEntry = try #require(
                ourInApp.first { $0["transaction_id"] as? String == transaction }, "transaction \(transaction)")
            let appleKeys = Set(appleEntry.keys.filter { !$0.hasSuffix("_pst") })
            #expect(Set(ourEntry.keys) == appleKeys, "keys of transaction \(transaction)")
            for key in appleKeys {
                #expect(ourEntry[key] as? String == appleEntry[key] as? String, "\(key) of transaction \(transaction)")
            }
        }
    }

    @Test("TPInAppReceipt production receipt (SHA-256, G5)")
    func production() throws {
        let receipt = try Self.verified("tpinapp_receipt-production.der")
        #expect(receipt.receiptType == "Production")
        #expect(receipt.environment == .production)
        #expect(receipt.bundleIdentifier == "org.getpure.pure-iphone")
        #expect(receipt.applicationVersion == "15741")
        #expect(receipt.originalApplicationVersion == "434")
        #expect(receipt.creationDate == Self.date(1_708_709_236))  // 2024-02-23T17:27:16Z
        #expect(receipt.opaqueValue.count == 16)
        #expect(receipt.sha1Hash.count == 20)
        #expect(
            receipt.inAppPurchases.map(\.productIdentifier) == [
                "org.getpure.pure.Week", "org.getpure.pure.Month", "org.getpure.pure.Month", "org.getpure.pure.Month",
            ])
        #expect(
            receipt.inAppPurchases.map(\.transactionIdentifier) == [
                "340001196262039", "340001237736590", "340001264290434", "340001311555626",
            ])
        #expect(
            receipt.inAppPurchases.map(\.promotionalOfferIdentifier) == [
                nil, nil, "org.getpure.pure.Month.Offer.3M.PayToGo", "org.getpure.pure.Month.Offer.3M.PayToGo",
            ])
        // Undocumented attributes are kept: 1, 6 to 11, 13 to 16, 18, 20, 25 in the app receipt.
        #expect(receipt.unknownAttributes.map(\.type) == [1, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 18, 20, 25])
        #expect(
            receipt.inAppPurchases[0].unknownAttributes.map(\.type) == [
                1709, 1710, 1714, 1715, 1716, 1717, 1718, 1722,
            ])
        let verifier = try ReceiptVerifier(trustedRoots: [X509Certificate.openStoreKitTestRoot])
        #expect(throws: ReceiptError(.chainNotTrusted)) {
            try verifier.verify(Fixtures.vector("tpinapp_receipt-production.der"))
        }
    }

    @Test("TPInAppReceipt sandbox G5 receipt and its device-hash vector")
    func sandboxG5() throws {
        let device = try DeviceIdentifier(parsing: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")
        let receipt = try Self.verified(
            "tpinapp_receipt-sandbox-g5.der", .init(bundleIdentifier: "dev.bonzer.weeka.app", deviceIdentifier: device))
        #expect(receipt.bundleIdentifier == "dev.bonzer.weeka.app")
        #expect(receipt.applicationVersion == "2")
        #expect(receipt.creationDate == Self.date(1_766_774_387))  // 2025-12-26T18:39:47Z
        #expect(receipt.inAppPurchases.map(\.transactionIdentifier) == ["2000001092134138", "2000001092148094"])
        #expect(
            receipt.inAppPurchases.map(\.productIdentifier)
                == Array(
                    repeating: "dev.bonzer.weeka.app.subscription.pro.annual", count: 2))
        #expect(
            receipt.inAppPurchases.map(\.webOrderLineItemIdentifier) == [2_000_000_123_357_229, 2_000_000_123_357_230])
        #expect(receipt.sha1Hash == Array(hex: "2158847543683847e9382a0fc51853cb17abcd6d"))
        #expect(receipt.matches(device: device))
        let other = try DeviceIdentifier(parsing: "956328D9-CC6A-47F4-BE40-6953FB0AB6C8")
        #expect(throws: ReceiptError(.deviceHashMismatch)) {
            try Self.verified("tpinapp_receipt-sandbox-g5.der", .init(deviceIdentifier: other))
        }
    }

    @Test("macOS receipt and its MAC-address device-hash vector")
    func macDeviceHash() throws {
        let device = try DeviceIdentifier(parsing: "6c:40:08:b5:94:5e")
        let receipt = try Self.verified("arv_hannes_mac_mindnode_receipt.der", .init(deviceIdentifier: device))
        #expect(receipt.bundleIdentifier == "com.ideasoncanvas.MindNodeMac")
        #expect(receipt.applicationVersion == "2.5.5")
        #expect(receipt.creationDate == Self.date(1_504_515_680))  // 2017-09-04T09:01:20Z
        #expect(receipt.sha1Hash == Array(hex: "81f334233bbf78a30144b6c9aa54d7b4dbef9acb"))
        #expect(try DeviceIdentifier(bytes: Array(hex: "6c4008b5945e")) == device)
        #expect(throws: ReceiptError(.deviceHashMismatch)) {
            try Self.verified(
                "arv_hannes_mac_mindnode_receipt.der",
                .init(deviceIdentifier: try DeviceIdentifier(parsing: "6c4008b5945f")))
        }
    }

    @Test("the 187-purchase legacy sandbox receipt (SHA-1, G1)")
    func largeLegacy() throws {
        let receipt = try Self.verified("tpinapp_receipt-sandbox-legacy.der")
        #expect(receipt.bundleIdentifier == "com.nutcall.alert")
        #expect(receipt.creationDate == Self.date(1_588_789_729))  // 2020-05-06T18:28:49Z
        #expect(receipt.inAppPurchases.count == 187)
        let counts = Dictionary(grouping: receipt.inAppPurchases, by: \.productIdentifier).mapValues(\.count)
        #expect(counts["com.nutcallalert.inapp.pro"] == 39)
        #expect(counts["com.nutcallalert.inapp.optimum"] == 116)
        #expect(counts["com.nutcallalert.inapp.lite"] == 32)
    }

    @Test("Xcode.app's 2015 Mac App Store receipt")
    func kvittoProduction() throws {
        let bytes = try Fixtures.vector("kvitto_receipt_production_xcode.der")
        let verified = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()]).verify(bytes)
        let receipt = verified.receipt
        #expect(verified.digestAlgorithm == .sha1)
        #expect(receipt.derEncoded().count == 505)
        #expect(receipt.bundleIdentifier == "com.apple.dt.Xcode")
        #expect(receipt.applicationVersion == "7.0")
        #expect(receipt.originalApplicationVersion == "4.3")
        #expect(receipt.receiptType == "Production")
        #expect(receipt.opaqueValue.count == 16)
        #expect(receipt.sha1Hash.count == 20)
        #expect(receipt.creationDate == Self.date(1_442_912_128))  // 2015-09-22T08:55:28Z
        #expect(receipt.inAppPurchases.isEmpty)
        #expect(receipt.unknownAttributes.first { $0.type == 10 }?.value == [0x16, 0x02, 0x34, 0x2B])  // "4+"
    }

    @Test("the other App Store vectors")
    func others() throws {
        let demo = try Self.verified("kvitto_demo_newReceipt.der")
        #expect(demo.bundleIdentifier == "de.emmi-club.manager")
        #expect(demo.inAppPurchases.count == 6)
        let mindnode2 = try Self.verified("arv_hannes_mac_mindnode_2_receipt.der")
        #expect(mindnode2.applicationVersion == "2.5.8")
        #expect(mindnode2.originalApplicationVersion == "2.5.5")
        #expect(mindnode2.creationDate == Self.date(1_677_070_585))  // 2023-02-22T12:56:25Z
        let touch = try Self.verified("arv_mindnode_ios_michaelsandbox_receipt1.der")
        #expect(touch.bundleIdentifier == "com.mindnode.mindnodetouch")
        #expect(touch.applicationVersion == "3394")
        let demoApp = try Self.verified("arv_grandUnifiedExpiredAppleCert_receipt.der")
        #expect(demoApp.bundleIdentifier == "com.mbaasy.ios.demo")
        #expect(demoApp.inAppPurchases.count == 7)
        #expect(demoApp.inAppPurchases.filter { $0.productType == .consumable }.count == 1)
        #expect(demoApp.inAppPurchases.filter { $0.productIdentifier == "monthly" }.count == 6)
    }

    @Test("Xcode receipts verify against the StoreKit certificate only when allowed", arguments: Fixtures.xcodeReceipts)
    func xcodeReceipts(name: String) throws {
        let bytes = try Fixtures.vector(name)
        let storeKit = try ReceiptVerifier(trustedRoots: [Fixtures.storeKitTestCertificate()])
        let verified = try storeKit.verify(bytes, options: .init(allowsXcodeReceipts: true))
        #expect(verified.isXcodeReceipt)
        #expect(verified.receipt.environment == .xcode)
        #expect(verified.certificateChain == [try Fixtures.storeKitTestCertificate()])
        #expect(throws: ReceiptError(.xcodeReceiptNotAllowed)) { try storeKit.verify(bytes) }
        let apple = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()])
        #expect(throws: ReceiptError(.chainNotTrusted)) {
            try apple.verify(bytes, options: .init(allowsXcodeReceipts: true))
        }
    }

    @Test("Xcode receipt fields, with +hhmm dates")
    func xcodeFields() throws {
        let storeKit = try ReceiptVerifier(trustedRoots: [Fixtures.storeKitTestCertificate()])
        let kvitto = try storeKit.verify(
            Fixtures.vector("kvitto_storeKitTestReceipt_xcode.der"), options: .init(allowsXcodeReceipts: true)
        ).receipt
        #expect(kvitto.bundleIdentifier == "com.rd.eehelper")
        #expect(kvitto.applicationVersion == "2020.10.02.1149")
        #expect(kvitto.creationDate == Self.date(1_602_847_770))  // 2020-10-16T14:29:30+0300
        #expect(kvitto.expirationDate == Self.date(64_092_211_200))  // 4001-01-01T02:00:00+0200
        #expect(kvitto.inAppPurchases.count == 1)
        #expect(kvitto.inAppPurchases[0].subscriptionExpirationDate == Self.date(1_634_383_770))
        let empty = try AppReceipt(unverifiedReceipt: Fixtures.vector("asslp_xcode-app-receipt-empty.der"))
        #expect(empty.inAppPurchases.isEmpty)
        let one = try AppReceipt(unverifiedReceipt: Fixtures.vector("asslp_xcode-app-receipt-with-transaction.der"))
        #expect(one.inAppPurchases.map(\.transactionIdentifier) == ["0"])
        #expect(one.inAppPurchases.map(\.productIdentifier) == ["pass.premium"])
        #expect(
            try Fixtures.vector("tpinapp_receipt-xcode-with-purchases.der")
                == Fixtures.vector("asslp_xcode-app-receipt-with-transaction.der"))
    }

    @Test("the iOS 6 property-list 'receipt' is rejected cleanly as not PKCS#7")
    func propertyList() throws {
        let bytes = try Fixtures.vector("arv_deprecatedSinglesTypeExpiredAppleCert_receipt.b64")
        let verifier = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()])
        let error = try #require(throws: ReceiptError.self) { try verifier.verify(bytes) }
        #expect(error.code == .notPKCS7)
        #expect(error.code.rawValue == 100)
        #expect(error.detail.contains("property list"))
        #expect(throws: ReceiptError(.notPKCS7)) { try AppReceipt(unverifiedReceipt: bytes) }
    }
}

extension Array where Element == UInt8 {
    /// Bytes from hexadecimal text.
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }
}
