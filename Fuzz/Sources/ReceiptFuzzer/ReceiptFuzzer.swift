import Foundation
import ReceiptKit

/// The verifier under test: it trusts the test root and, when the shared vectors are present, Apple Inc. Root and
/// Xcode's StoreKit certificate, so that mutations of real receipts reach the chain checks.
let verifier: ReceiptVerifier = {
    var roots = [X509Certificate.openStoreKitTestRoot]
    let vectors =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/../../../../shared/vectors/receipts"
    for name in ["AppleIncRootCertificate.cer", "tpinapp_StoreKitTestCertificate.cer"] {
        if let root = try? ReceiptFile.readCertificate(atPath: vectors + "/" + name) { roots.append(root) }
    }
    do {
        return try ReceiptVerifier(trustedRoots: roots)
    } catch {
        fatalError("cannot create the verifier: \(error)")
    }
}()

/// Writes seed receipts issued by ReceiptKit into `$RECEIPT_FUZZ_SEED_DIR`, if set.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
    -> Int32
{
    guard let directory = ProcessInfo.processInfo.environment["RECEIPT_FUZZ_SEED_DIR"] else { return 0 }
    let created = Date(timeIntervalSince1970: 1_736_935_200)
    var purchases: [InAppPurchaseReceipt] = []
    for index in 0..<10 {
        purchases.append(
            InAppPurchaseReceipt(
                productIdentifier: "com.example.app.monthly", transactionIdentifier: "10000000000\(index)",
                purchaseDate: created.addingTimeInterval(Double(index) * 86_400),
                originalTransactionIdentifier: "100000000000", originalPurchaseDate: created,
                productType: .autoRenewableSubscription,
                subscriptionExpirationDate: created.addingTimeInterval(Double(index + 1) * 86_400),
                webOrderLineItemIdentifier: 2_000_000_000_000_000 + Int64(index), isTrialPeriod: index == 0,
                promotionalOfferIdentifier: index == 3 ? "offer.3" : nil,
                unknownAttributes: [ReceiptAttribute(type: 1710, value: [0x02, 0x01, 0x00])]))
    }
    let receipt = AppReceipt(
        receiptType: "ProductionSandbox", bundleIdentifier: "com.example.app", applicationVersion: "1",
        opaqueValue: Array(repeating: 7, count: 16), sha1Hash: Array(repeating: 9, count: 20), creationDate: created,
        inAppPurchases: purchases, originalApplicationVersion: "1.0",
        unknownAttributes: [ReceiptAttribute(type: 1, value: [0x02, 0x01, 0x00])])
    let seeds: [(String, [UInt8])] = [
        ("payload.der", receipt.derEncoded()),
        ("receipt-sha256.der", (try? ReceiptSigner().sign(receipt)) ?? []),
        ("receipt-sha1.der", (try? ReceiptSigner(digestAlgorithm: .sha1).sign(receipt)) ?? []),
    ]
    for (name, bytes) in seeds {
        _ = FileManager.default.createFile(atPath: directory + "/seed-" + name, contents: Data(bytes))
    }
    return 0
}

/// One input: the generic ASN.1 reader in both modes, the payload parser, the container parser and the verifier.
/// Properties that must hold are checked with `precondition`, so a violation is reported as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    _ = try? ASN1Node(parsing: bytes, rules: .ber)
    if let node = try? ASN1Node(parsing: bytes, rules: .der) {
        precondition(node.derEncoded() == bytes, "DER input must re-encode to itself")
    }
    if var receipt = try? AppReceipt(derEncoded: bytes) {
        let encoded = receipt.derEncoded()
        guard var again = try? AppReceipt(derEncoded: encoded) else {
            preconditionFailure("the encoding of a parsed payload must parse")
        }
        precondition(again.derEncoded() == encoded, "encoding must be a fixed point")
        // DER sorts the purchases by their encodings; compare them in that order.
        let byEncoding = { (a: InAppPurchaseReceipt, b: InAppPurchaseReceipt) in
            a.derEncoded().lexicographicallyPrecedes(b.derEncoded())
        }
        receipt.inAppPurchases.sort(by: byEncoding)
        again.inAppPurchases.sort(by: byEncoding)
        precondition(again == receipt, "a parsed payload must survive encoding and parsing")
        _ = ReceiptJSON.receiptObject(receipt)
    }
    if let receipt = try? AppReceipt(unverifiedReceipt: bytes) {
        _ = ReceiptJSON.document(for: receipt, verified: false)
    }
    // One verification per input; the time alternates so that both the creation-date path and a fixed time (outside
    // most cached chains' validity) are exercised.
    let time: ReceiptVerificationTime =
        size % 2 == 0 ? .creationDate : .date(Date(timeIntervalSince1970: 1_600_000_000))
    do {
        let verified = try verifier.verify(
            bytes, options: .init(time: time, bundleIdentifier: "com.example.app", allowsXcodeReceipts: true))
        precondition(verified.receipt.bundleIdentifier == "com.example.app")
    } catch {
        precondition(!error.detail.isEmpty, "every error explains itself")
    }
    return 0
}
