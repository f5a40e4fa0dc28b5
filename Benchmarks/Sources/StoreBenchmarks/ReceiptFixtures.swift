import Foundation
import ReceiptKit
import StoreSimulator

/// What the receipt benchmarks work on: a receipt from the simulated store with 10 purchases, its payload and
/// signature, and the test PKI's certificates and key as both ReceiptKit and OpenSSL objects.
struct ReceiptFixtures {
    /// The number of in-app purchases in ``receipt``.
    static let purchases = 10

    /// The signed receipt (PKCS#7 DER) as `SimulatedStore.appReceipt(deviceID:)` returns it.
    let receipt: [UInt8]
    /// Its contents.
    let model: AppReceipt
    /// Its payload (the signed content) and signature, taken out by OpenSSL.
    let signedData: OpenSSLSignedData
    /// The test root, decoded by OpenSSL.
    let root: OpenSSLCertificate
    /// The leaf (signing) certificate, decoded by OpenSSL.
    let leaf: OpenSSLCertificate
    /// The intermediate certificate, decoded by OpenSSL.
    let intermediate: OpenSSLCertificate

    /// Makes the receipt: a store on the manual lane sells a non-consumable, a non-renewing subscription and a monthly
    /// subscription, then moves its clock until the monthly one has renewed enough to list ``purchases`` purchases.
    init() throws {
        let store = SimulatedStore(lane: .manual)
        do {
            try store.buyProduct("com.example.pro")
            try store.buyProduct("com.example.season")
            try store.buyProduct("com.example.premium.monthly")
        } catch {
            throw BenchmarkError("the simulated store would not sell the demo products: \(error)")
        }
        while store.appReceiptModel().inAppPurchases.count < Self.purchases {
            guard let next = store.nextSubscriptionEventDate else {
                throw BenchmarkError("the demo monthly subscription stopped renewing")
            }
            do {
                try store.advance(to: next)
            } catch {
                throw BenchmarkError("the simulated store would not move its clock: \(error)")
            }
        }
        do {
            receipt = try store.appReceipt()
            model = try AppReceipt(unverifiedReceipt: receipt)
        } catch {
            throw BenchmarkError("the simulated store's receipt is unreadable: \(error)")
        }
        guard model.inAppPurchases.count == Self.purchases else {
            throw BenchmarkError(
                "the receipt lists \(model.inAppPurchases.count) purchases, not \(Self.purchases)")
        }
        signedData = try OpenSSLSignedData(receipt: receipt)
        let certificates = ReceiptSigningIdentity.openStoreKitTest.certificates
        leaf = try OpenSSLCertificate(der: certificates[0].derEncoded)
        intermediate = try OpenSSLCertificate(der: certificates[1].derEncoded)
        root = try OpenSSLCertificate(der: X509Certificate.openStoreKitTestRoot.derEncoded)
    }

    /// The leaf's private key, read from `Receipts/pki/leaf.key` (the key ReceiptKit's test identity embeds).
    func leafKey() throws -> OpenSSLPrivateKey {
        let url = RepositoryPaths.testPKI.appendingPathComponent("leaf.key")
        guard let pem = try? String(contentsOf: url, encoding: .utf8) else {
            throw BenchmarkError("cannot read the test PKI's leaf key at \(url.path)")
        }
        return try OpenSSLPrivateKey(pemEncoded: pem)
    }
}
