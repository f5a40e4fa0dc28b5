import Foundation
import ReceiptKit
import TestSupport
import Testing

@Suite("The verified-chain cache and concurrent use")
struct VerifierCacheTests {
    @Test("a second receipt from the same signer reuses the chain; its checks still run", .requiresSharedData)
    func reuse() throws {
        let verifier = try Issuing.verifier()
        let first = try ReceiptSigner().sign(Issuing.receipt(purchases: 1))
        let second = try ReceiptSigner().sign(Issuing.receipt(purchases: 2))
        #expect(verifier.cachedChainCount == 0)
        let a = try verifier.verify(first)
        #expect(verifier.cachedChainCount == 1)
        let b = try verifier.verify(second)
        #expect(verifier.cachedChainCount == 1)
        #expect(a.certificateChain == b.certificateChain)
        #expect(b.receipt.inAppPurchases.count == 2)
        #expect(throws: ReceiptError(.bundleIdentifierMismatch)) {
            try verifier.verify(second, options: .init(bundleIdentifier: "other"))
        }
        // Outside the cached chain's validity the full check runs again and names the problem.
        #expect(throws: ReceiptError(.certificateExpired)) {
            try verifier.verify(second, options: .init(time: .date(Date(timeIntervalSince1970: 3_000_000_000))))
        }
        // A receipt from another signer gets its own entry.
        _ = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot(), .openStoreKitTestRoot]).verify(first)
        let both = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot(), .openStoreKitTestRoot])
        _ = try both.verify(first)
        _ = try both.verify(Fixtures.vector("tpinapp_receipt-production.der"))
        #expect(both.cachedChainCount == 2)
    }

    @Test("many threads verify good and forged receipts at once", .requiresSharedData)
    func concurrent() async throws {
        let verifier = try Issuing.verifier()
        let apple = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()])
        let good = try ReceiptSigner().sign(Issuing.receipt(purchases: 5))
        var tampered = good
        tampered[tampered.count - 10] ^= 0xFF
        let forged = tampered
        let vector = try Fixtures.vector("tpinapp_receipt-sandbox-g5.der")
        let results = await withTaskGroup(of: (Bool, Bool, Bool).self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var goodOK = true
                    var forgedRejected = true
                    var vectorOK = true
                    for _ in 0..<20 {
                        goodOK = goodOK && (try? verifier.verify(good)) != nil
                        do throws(ReceiptError) {
                            _ = try verifier.verify(forged)
                            forgedRejected = false
                        } catch {
                            forgedRejected = forgedRejected && error.code == .signatureInvalid
                        }
                        vectorOK = vectorOK && (try? apple.verify(vector)) != nil
                    }
                    return (goodOK, forgedRejected, vectorOK)
                }
            }
            var all: [(Bool, Bool, Bool)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0.0 && $0.1 && $0.2 })
        #expect(verifier.cachedChainCount == 1)
    }
}
