import Foundation
import ReceiptKit
import StoreModels
package import StoreSimulator
import Synchronization

/// StoreKit 2's view of what a test set on a store (``SKTestSession``'s `setSimulatedError(_:forAPI:)`): the failure
/// of each StoreKit 2 API, kept in the store's own settings (``StoreSimulator/StoreSettings/simulatedErrors``), the one
/// place StoreKit 1 reads and writes too; and the verifier of the store's JWS, which remembers the chains it has
/// checked. One per store, shared by every device of it.
package final class StoreKitControls: Sendable {
    /// A StoreKit 2 API a test can make fail.
    package enum API: Hashable, Sendable, CaseIterable {
        case loadProducts, purchase, verification, appStoreSync, subscriptionStatus, appTransaction,
            manageSubscriptions, refundRequest, offerCodeRedeem

        /// The store's name of the operation: StoreKit 1 and StoreKit 2 share one failure per operation.
        var storeAPI: StoreAPI {
            switch self {
            case .loadProducts: .loadProducts
            case .purchase: .purchase
            case .verification: .verification
            case .appStoreSync: .restore
            case .subscriptionStatus: .subscriptionStatus
            case .appTransaction: .receiptRefresh
            case .manageSubscriptions: .manageSubscriptions
            case .refundRequest: .refundRequest
            case .offerCodeRedeem: .offerCodeRedeem
            }
        }

        /// Whether the store itself fails the operation for a failure StoreKit 1 set (one without a StoreKit 2
        /// kind), so StoreKit 2 reports the store's answer instead of throwing first.
        var storeFailsIt: Bool { self == .loadProducts || self == .purchase || self == .appStoreSync }
    }

    /// A failure to simulate.
    package enum Failure: Sendable {
        case storeKit(StoreKitError)
        case purchase(Product.PurchaseError)
        case verification(VerificationResult<Transaction>.VerificationError)
        case refundRequest(Transaction.RefundRequestError)
    }

    /// The store; weak, as the registry holds it.
    private struct StoreReference: Sendable {
        weak var store: SimulatedStore?
    }

    private let reference: StoreReference
    /// The verifiers made, with the root each trusts (one per store in practice: its signing identity's root).
    private let verifiers = Mutex<[(root: X509Certificate, verifier: JWSVerifier)]>([])

    /// The verifier that trusts exactly `root`, made once per root.
    func verifier(trusting root: X509Certificate) throws(ReceiptError) -> JWSVerifier {
        if let known = verifiers.withLock({ Self.verifier(trusting: root, in: $0) }) { return known }
        let made = try JWSVerifier(trustedRoots: [root])
        return verifiers.withLock { verifiers in
            if let known = Self.verifier(trusting: root, in: verifiers) { return known }
            verifiers.append((root, made))
            return made
        }
    }

    /// The verifier made for `root`: the same certificate object (the store's own root, asked for at every
    /// verification), or one with the same bytes.
    private static func verifier(
        trusting root: X509Certificate, in known: [(root: X509Certificate, verifier: JWSVerifier)]
    ) -> JWSVerifier? {
        known.first { $0.root === root || $0.root.derEncoded == root.derEncoded }?.verifier
    }

    /// Creates the controls of a store.
    package init(store: SimulatedStore) {
        reference = StoreReference(store: store)
    }

    /// Sets or clears the failure of an API, in the store's settings.
    package func setFailure(_ failure: Failure?, for api: API) {
        reference.store?.updateSettings { $0.simulatedErrors[api.storeAPI] = failure?.storeFailure }
    }

    /// The failure set for an API, by either face; one StoreKit 1 set is reported as StoreKit 2 reports the store's
    /// failures.
    package func failure(for api: API) -> Failure? {
        guard let stored = reference.store?.settings.simulatedErrors[api.storeAPI] else { return nil }
        return Failure(stored)
    }

    /// Throws the failure set for an API, if any. A verification failure is not thrown (it makes results
    /// unverified), nor one StoreKit 1 set on an operation the store fails itself.
    func check(_ api: API) throws {
        guard let stored = reference.store?.settings.simulatedErrors[api.storeAPI] else { return }
        if stored.kind == nil && api.storeFailsIt { return }
        switch Failure(stored) {
        case .verification: return
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

extension StoreKitControls.Failure {
    /// The failure as the store keeps it: a StoreKit 1 code for StoreKit 1's faces, and its exact kind for StoreKit 2.
    var storeFailure: StoreFailure {
        switch self {
        case .storeKit(let error):
            let (code, kind): (StoreErrorCode, String) =
                switch error {
                case .unknown: (.unknown, "unknown")
                case .userCancelled: (.paymentCancelled, "userCancelled")
                case .networkError(let url): (.cloudServiceNetworkConnectionFailed, "networkError.\(url.code.rawValue)")
                case .systemError: (.unknown, "systemError")
                case .notAvailableInStorefront: (.storeProductNotAvailable, "notAvailableInStorefront")
                case .notEntitled: (.clientInvalid, "notEntitled")
                case .unsupported: (.unsupportedPlatform, "unsupported")
                }
            return StoreFailure(code, error.localizedDescription, kind: "storeKit." + kind)
        case .purchase(let error):
            let code: StoreErrorCode =
                switch error {
                case .invalidQuantity: .paymentInvalid
                case .productUnavailable: .storeProductNotAvailable
                case .purchaseNotAllowed: .paymentNotAllowed
                case .ineligibleForOffer: .ineligibleForOffer
                case .invalidOfferIdentifier: .invalidOfferIdentifier
                case .invalidOfferPrice: .invalidOfferPrice
                case .invalidOfferSignature: .invalidSignature
                case .missingOfferParameters: .missingOfferParams
                }
            return StoreFailure(code, error.localizedDescription, kind: "purchase.\(error)")
        case .verification(let error):
            return StoreFailure(.unknown, error.localizedDescription, kind: "verification.\(error)")
        case .refundRequest(let error):
            return StoreFailure(.unknown, error.localizedDescription, kind: "refundRequest.\(error)")
        }
    }

    /// Every purchase error, to read one back by name.
    private static let purchaseErrors: [Product.PurchaseError] = [
        .invalidQuantity, .productUnavailable, .purchaseNotAllowed, .ineligibleForOffer, .invalidOfferIdentifier,
        .invalidOfferPrice, .invalidOfferSignature, .missingOfferParameters,
    ]

    /// Every verification error, to read one back by name.
    private static let verificationErrors: [VerificationResult<Transaction>.VerificationError] = [
        .revokedCertificate, .invalidCertificateChain, .invalidDeviceVerification, .invalidEncoding, .invalidSignature,
        .missingRequiredProperties,
    ]

    /// The StoreKit 2 failure of a stored one: its exact kind, or, for one StoreKit 1 set, the StoreKit 2 error of
    /// its code.
    init(_ stored: StoreFailure) {
        let parts = (stored.kind ?? "").split(separator: ".", maxSplits: 1).map(String.init)
        let (face, name) = (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        switch face {
        case "purchase":
            if let error = Self.purchaseErrors.first(where: { "\($0)" == name }) {
                self = .purchase(error)
                return
            }
        case "verification":
            if let error = Self.verificationErrors.first(where: { "\($0)" == name }) {
                self = .verification(error)
                return
            }
        case "refundRequest":
            self = .refundRequest(name == "duplicateRequest" ? .duplicateRequest : .failed)
            return
        case "storeKit":
            switch name {
            case "unknown": self = .storeKit(.unknown)
            case "userCancelled": self = .storeKit(.userCancelled)
            case "notAvailableInStorefront": self = .storeKit(.notAvailableInStorefront)
            case "notEntitled": self = .storeKit(.notEntitled)
            case "unsupported": self = .storeKit(.unsupported)
            case _ where name.hasPrefix("networkError."):
                let code = Int(name.dropFirst("networkError.".count)).flatMap(URLError.Code.init(rawValue:))
                self = .storeKit(.networkError(URLError(code ?? .notConnectedToInternet)))
            default: self = .storeKit(.systemError(StoreFailure(stored.code, stored.message)))
            }
            return
        default:
            break
        }
        self = .storeKit(StoreKitError(stored))
    }
}
