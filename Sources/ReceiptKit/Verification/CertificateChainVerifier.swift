internal import COpenSSL
import Foundation

/// Checks certificate chains against one set of trusted roots with OpenSSL's `X509_verify_cert`, for receipts and
/// JWS alike: the one owner of the `X509_STORE` that holds the roots, and of each verification's `X509_STORE_CTX`.
///
/// What differs between receipts and JWS (the purpose checked, OpenSSL's strict rules, the shape of the chain, the word
/// for what is signed) is a ``Policy``; the time is a number of seconds since 1970. A failure is a ``ReceiptError``
/// whose code says what failed (expired, untrusted, wrong purpose, missing marker, ...).
///
/// Safe to share between threads: the store is filled in `init` and never changed afterwards, and OpenSSL supports
/// concurrent chain verification against one `X509_STORE`.
final class CertificateChainVerifier: @unchecked Sendable {
    /// How a chain is checked beyond the signatures and validity periods of its certificates.
    struct Policy: Sendable {
        /// The purpose OpenSSL checks the chain for.
        enum Purpose: Sendable {
            /// OpenSSL's default: no purpose set (JWS).
            case unset
            /// `X509_PURPOSE_SMIME_SIGN`, as for App Store receipts.
            case smimeSign
            /// `X509_PURPOSE_ANY`, for an Xcode-style self-signed certificate.
            case any
        }

        /// What the chain must look like once OpenSSL has built it.
        enum Shape: Sendable {
            /// Leaf, intermediate, root, with Apple's marker extensions on the leaf and the intermediate.
            case apple
            /// The leaf alone, which must itself be a trusted root.
            case trustedLeaf
            /// Whatever OpenSSL accepts.
            case any
        }

        /// The purpose checked.
        var purpose: Purpose
        /// Whether OpenSSL's strict X.509 rules apply (`X509_V_FLAG_X509_STRICT`).
        var strict: Bool
        /// The shape required.
        var shape: Shape
        /// What the chain signs, as error messages name it: `receipts`, `JWS`.
        var signs: String
    }

    /// The roots trusted, in the order given.
    let trustedRoots: [X509Certificate]
    private let store: OpaquePointer  // X509_STORE *

    /// Creates a verifier that trusts exactly these roots.
    ///
    /// - Throws: ``ReceiptError/Code/openSSLFailure`` if OpenSSL cannot build the store.
    init(trustedRoots: [X509Certificate]) throws(ReceiptError) {
        guard let store = X509_STORE_new() else { throw OpenSSLErrorQueue.failure("X509_STORE_new") }
        for root in trustedRoots {
            guard root.withUnsafeX509({ X509_STORE_add_cert(store, $0) }) == 1 else {
                X509_STORE_free(store)
                throw OpenSSLErrorQueue.failure("X509_STORE_add_cert")
            }
        }
        self.trustedRoots = trustedRoots
        self.store = store
    }

    deinit {
        X509_STORE_free(store)
    }

    /// A date as whole seconds since 1970, kept within the years 0000 to 9999 that certificates can express.
    static func seconds(_ date: Date) -> Int64 {
        let interval = date.timeIntervalSince1970
        return interval.isNaN
            ? -62_167_219_200 : Int64(max(min(interval.rounded(.down), 253_402_300_799), -62_167_219_200))
    }

    /// Builds and checks the chain from `leaf` to a trusted root at `seconds`, then the policy's shape.
    ///
    /// - Parameters:
    ///   - leaf: The signing certificate.
    ///   - untrusted: The other certificates the signed data carries, which OpenSSL may use to build the chain.
    ///   - seconds: The verification time, in seconds since 1970.
    ///   - policy: The purpose, rules and shape.
    /// - Returns: The verified chain, leaf first, made of `leaf`, `untrusted` and the trusted roots.
    func verify(
        _ leaf: X509Certificate, untrusted: [X509Certificate], at seconds: Int64, policy: Policy
    ) throws(ReceiptError) -> VerifiedChain {
        let outcome: Result<[OpaquePointer], ReceiptError> = withContext { context in
            guard let stack = COpenSSL_sk_X509_new_null() else {
                return .failure(OpenSSLErrorQueue.failure("sk_X509_new_null"))
            }
            defer { COpenSSL_sk_X509_free(stack) }  // the stack does not own its certificates
            for certificate in untrusted {
                _ = certificate.withUnsafeX509 { COpenSSL_sk_X509_push(stack, $0) }
            }
            let initialized = leaf.withUnsafeX509 { X509_STORE_CTX_init(context, store, $0, stack) }
            guard initialized == 1 else { return .failure(OpenSSLErrorQueue.failure("X509_STORE_CTX_init")) }
            X509_STORE_CTX_set_time(context, 0, time_t(seconds))
            switch policy.purpose {
            case .unset: break
            case .smimeSign: _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SMIME_SIGN)
            case .any: _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_ANY)
            }
            if policy.strict, let parameters = X509_STORE_CTX_get0_param(context) {
                _ = X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT))
            }
            guard X509_verify_cert(context) == 1 else {
                let code = X509_STORE_CTX_get_error(context)
                let depth = Int(X509_STORE_CTX_get_error_depth(context))
                _ = OpenSSLErrorQueue.drain()
                return .failure(Self.chainError(code, depth: depth, leaf: leaf, signs: policy.signs))
            }
            guard let chain = X509_STORE_CTX_get0_chain(context) else {
                return .failure(OpenSSLErrorQueue.failure("X509_STORE_CTX_get0_chain"))
            }
            return .success((0..<COpenSSL_sk_X509_num(chain)).compactMap { COpenSSL_sk_X509_value(chain, $0) })
        }
        let pointers = try outcome.get()
        let known = [leaf] + untrusted + trustedRoots
        var chain: [X509Certificate] = []
        chain.reserveCapacity(pointers.count)
        for pointer in pointers {
            guard let certificate = known.first(where: { $0.withUnsafeX509 { $0 == pointer } }) else {
                throw ReceiptError(.openSSLFailure, "the verified chain holds a certificate ReceiptKit did not pass")
            }
            chain.append(certificate)
        }
        try Self.check(chain, shape: policy.shape, signs: policy.signs)
        return VerifiedChain(chain)
    }

    /// Calls `body` with a new `X509_STORE_CTX`, freed when it returns.
    private func withContext<R>(
        _ body: (OpaquePointer) -> Result<R, ReceiptError>
    ) -> Result<R, ReceiptError> {
        guard let context = X509_STORE_CTX_new() else {
            return .failure(OpenSSLErrorQueue.failure("X509_STORE_CTX_new"))
        }
        defer { X509_STORE_CTX_free(context) }
        return body(context)
    }

    /// Checks a chain OpenSSL accepted against the shape the policy asks for.
    private static func check(_ chain: [X509Certificate], shape: Policy.Shape, signs: String) throws(ReceiptError) {
        switch shape {
        case .any:
            return
        case .trustedLeaf:
            guard chain.count == 1 else {
                throw ReceiptError(
                    .chainNotTrusted, "the Xcode-style certificate \(chain[0].subject) is not itself a trusted root")
            }
        case .apple:
            guard chain.count == 3 else {
                throw ReceiptError(
                    .unexpectedChainLength,
                    "the verified chain has \(chain.count) certificates; App Store \(signs) chain leaf, "
                        + "intermediate, root")
            }
            guard chain[0].hasExtension(ObjectIdentifiers.receiptSigningMarker) else {
                throw ReceiptError(
                    .missingReceiptSigningMarker,
                    "the signing certificate \(chain[0].subject) lacks Apple's marker "
                        + ObjectIdentifiers.receiptSigningMarker)
            }
            guard chain[1].hasExtension(ObjectIdentifiers.intermediateMarker) else {
                throw ReceiptError(
                    .missingIntermediateMarker,
                    "the intermediate certificate \(chain[1].subject) lacks Apple's marker "
                        + ObjectIdentifiers.intermediateMarker)
            }
        }
    }

    /// Maps an OpenSSL verification error to a code.
    private static func chainError(_ code: Int32, depth: Int, leaf: X509Certificate, signs: String) -> ReceiptError {
        let reason = String(cString: X509_verify_cert_error_string(Int(code)))
        let place = depth == 0 ? "the signing certificate \(leaf.subject)" : "the certificate at chain depth \(depth)"
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return ReceiptError(.certificateExpired, "\(place) had expired at the verification time (\(reason))")
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return ReceiptError(
                .certificateNotYetValid, "\(place) was not yet valid at the verification time (\(reason))")
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
            X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
            return ReceiptError(.certificateSignatureInvalid, "the signature of \(place) does not verify (\(reason))")
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED:
            return ReceiptError(.chainNotTrusted, "no chain from \(place) to a trusted root (\(reason))")
        case X509_V_ERR_INVALID_PURPOSE, X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN,
            X509_V_ERR_INVALID_NON_CA, X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE, X509_V_ERR_PATH_LENGTH_EXCEEDED:
            return ReceiptError(.certificatePurposeInvalid, "\(place) may not sign \(signs) (\(reason))")
        default:
            return ReceiptError(.chainInvalid, "\(place) fails verification: \(reason) (OpenSSL error \(code))")
        }
    }
}
