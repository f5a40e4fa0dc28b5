import ReceiptKit
import Synchronization

/// What a test set on a store for StoreKit 2 (``SKTestSession``'s `setSimulatedError(_:forAPI:)`): the failures
/// of each StoreKit 2 API; and the verifier of the store's JWS, which remembers the chains it has checked. One per
/// store, shared by every device of it.
package final class StoreKitControls: Sendable {
    /// A StoreKit 2 API a test can make fail.
    package enum API: Hashable, Sendable, CaseIterable {
        case loadProducts, purchase, verification, appStoreSync, subscriptionStatus, appTransaction,
            manageSubscriptions, refundRequest, offerCodeRedeem
    }

    /// A failure to simulate.
    package enum Failure: Sendable {
        case storeKit(StoreKitError)
        case purchase(Product.PurchaseError)
        case verification(VerificationResult<Transaction>.VerificationError)
        case refundRequest(Transaction.RefundRequestError)
    }

    private let failures = Mutex<[API: Failure]>([:])
    private let verifiers = Mutex<[[UInt8]: JWSVerifier]>([:])

    /// The verifier that trusts exactly `root`, made once per root.
    func verifier(trusting root: X509Certificate) throws(ReceiptError) -> JWSVerifier {
        if let known = verifiers.withLock({ $0[root.derEncoded] }) { return known }
        let made = try JWSVerifier(trustedRoots: [root])
        return verifiers.withLock { verifiers in
            if let known = verifiers[root.derEncoded] { return known }
            verifiers[root.derEncoded] = made
            return made
        }
    }

    /// Creates controls with no failure set.
    package init() {}

    /// Sets or clears the failure of an API.
    package func setFailure(_ failure: Failure?, for api: API) {
        failures.withLock { $0[api] = failure }
    }

    /// The failure set for an API.
    package func failure(for api: API) -> Failure? {
        failures.withLock { $0[api] }
    }

    /// Throws the failure set for an API, if any (a verification failure is not thrown: it makes results
    /// unverified).
    func check(_ api: API) throws {
        switch failure(for: api) {
        case nil, .verification: return
        case .storeKit(let error): throw error
        case .purchase(let error): throw error
        case .refundRequest(let error): throw error
        }
    }

    /// The verification error every result carries while a test simulates one.
    var verificationFailure: VerificationResult<Transaction>.VerificationError? {
        if case .verification(let error) = failure(for: .verification) { return error }
        return nil
    }
}
