import Foundation
import ReceiptKit
import StoreModels
package import StoreSimulator

/// The values a store signs, decoded and verified: `.verified` only when ReceiptKit's `JWSVerifier` accepts the JWS
/// against the store's root (and no test simulates a verification failure).
package struct SignedValues: Sendable {
    let store: SimulatedStore
    let controls: StoreKitControls

    /// The signed values of a store.
    package init(store: SimulatedStore) {
        self.init(store: store, controls: store.storeKitControls)
    }

    init(store: SimulatedStore, controls: StoreKitControls) {
        self.store = store
        self.controls = controls
    }

    /// The store's signed transaction of a record, verified; `finish()` on it goes to the bound device.
    package func transaction(_ recordID: UInt64) -> VerificationResult<Transaction>? {
        transaction(recordID, origin: nil)
    }

    func transaction(_ recordID: UInt64, origin: StoreKitClient?) -> VerificationResult<Transaction>? {
        guard let jws = signedTransactionJWS(recordID) else { return nil }
        return result(of: jws, as: JWSTransaction.self) { payload, signed in
            Transaction(payload, signed: signed, origin: origin)
        }
    }

    /// The store's signed renewal info of a subscription, verified.
    func renewalInfo(originalID: UInt64) -> VerificationResult<Product.SubscriptionInfo.RenewalInfo>? {
        guard let jws = signedRenewalInfoJWS(originalID) else { return nil }
        return result(of: jws, as: JWSRenewalInfo.self) { payload, signed in
            Product.SubscriptionInfo.RenewalInfo(payload, signed: signed)
        }
    }

    /// The store's signed app transaction of an account, verified.
    func appTransaction(account: String) -> VerificationResult<AppTransaction>? {
        guard let jws = signedAppTransactionJWS(account: account) else { return nil }
        return result(of: jws, as: JWSAppTransaction.self) { payload, signed in AppTransaction(payload, signed: signed)
        }
    }

    /// Decodes a JWS's payload and verifies the JWS: `.verified` only when the verifier accepts it.
    private func result<Payload: Decodable, Value>(
        of jws: String, as type: Payload.Type, make: (Payload, SignedJWS) -> Value
    ) -> VerificationResult<Value>? {
        let signed =
            SignedJWS(jws) ?? SignedJWS(jws: jws, header: Data(), payload: Data(), signature: Data())
        guard let payload = try? JSONDecoder().decode(Payload.self, from: signed.payloadData) else {
            return nil
        }
        let value = make(payload, signed)
        if let simulated = controls.verificationFailure {
            return .unverified(value, VerificationResult<Value>.VerificationError(simulated))
        }
        guard let error = verify(jws) else { return .verified(value) }
        return .unverified(value, VerificationResult<Value>.VerificationError(error))
    }

    // MARK: The store's signing (the only calls into it)

    func signedTransactionJWS(_ recordID: UInt64) -> String? { try? store.signedTransaction(recordID) }

    func signedRenewalInfoJWS(_ originalID: UInt64) -> String? {
        try? store.signedRenewalInfo(originalTransactionID: originalID)
    }

    func signedAppTransactionJWS(account: String) -> String? { try? store.signedAppTransaction(account: account) }

    /// Verifies a JWS against the store's root; `nil` when it passes.
    func verify(_ jws: String) -> VerificationResult<Transaction>.VerificationError? {
        do throws(ReceiptError) {
            let verifier = try controls.verifier(trusting: signingRoot)
            _ = try verifier.verify(jws, options: verificationOptions)
            return nil
        } catch {
            return VerificationResult<Transaction>.VerificationError(error)
        }
    }

    /// The root that verifies what the store signs: the last certificate of its signing identity (for Xcode-style
    /// signing, the one self-signed certificate).
    private var signingRoot: X509Certificate {
        store.jwsSigner.identity.certificates.last ?? X509Certificate.openStoreKitJWSTestRoot
    }

    /// What is checked beyond the chain: the app's bundle identifier and the store's environment; Xcode-signed data
    /// is accepted from a store that signs Xcode-style.
    private var verificationOptions: JWSVerificationOptions {
        let environment = store.jwsEnvironment
        return JWSVerificationOptions(
            bundleIdentifier: store.app.bundleIdentifier, environment: environment,
            allowsXcode: environment == .xcode)
    }
}
