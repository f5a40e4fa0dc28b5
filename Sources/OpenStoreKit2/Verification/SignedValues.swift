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
        guard let value = try? store.signedTransactionValue(recordID) else { return nil }
        return result(of: value) { payload, signed in Transaction(payload, signed: signed, origin: origin) }
    }

    /// The store's signed transaction of a record the store handed over (a purchase's decision), verified.
    func transaction(of record: TransactionRecord, origin: StoreKitClient?) -> VerificationResult<Transaction>? {
        guard let value = try? store.signedTransactionValue(of: record) else { return nil }
        return result(of: value) { payload, signed in Transaction(payload, signed: signed, origin: origin) }
    }

    /// The store's signed renewal info of a subscription, verified.
    func renewalInfo(originalID: UInt64) -> VerificationResult<Product.SubscriptionInfo.RenewalInfo>? {
        guard let value = try? store.signedRenewalInfoValue(originalTransactionID: originalID) else { return nil }
        return result(of: value) { payload, signed in Product.SubscriptionInfo.RenewalInfo(payload, signed: signed) }
    }

    /// The store's signed app transaction of an account, verified.
    func appTransaction(account: String) -> VerificationResult<AppTransaction>? {
        guard let value = try? store.signedAppTransactionValue(account: account) else { return nil }
        return result(of: value) { payload, signed in AppTransaction(payload, signed: signed) }
    }

    /// Verifies what the store handed out, once: the JWS is split and decoded once, for the value's parts and for
    /// the verifier. A JWS that passes is made from the payload the store signed (its bytes are the ones the store
    /// encoded from it); one that does not (a simulated failure, a tampered JWS) from what its payload says, decoded.
    /// `nil` when the JWS or its payload cannot be decoded.
    private func result<Payload: Decodable, Value>(
        of value: StoreSignedValue<Payload>, make: (Payload, SignedJWS) -> Value
    ) -> VerificationResult<Value>? {
        guard let decoded = try? CompactJWS(value.jwsRepresentation) else { return nil }
        let signed = SignedJWS(jws: value.jwsRepresentation, decoded: decoded)
        guard let failure = controls.verificationFailure ?? verify(decoded) else {
            return .verified(make(value.payload, signed))
        }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: signed.payloadData) else { return nil }
        return .unverified(make(payload, signed), VerificationResult<Value>.VerificationError(failure))
    }

    /// Verifies a JWS against the store's root; `nil` when it passes.
    func verify(_ jws: CompactJWS) -> VerificationResult<Transaction>.VerificationError? {
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
