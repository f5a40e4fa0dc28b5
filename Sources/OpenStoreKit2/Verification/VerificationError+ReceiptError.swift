import ReceiptKit

extension VerificationResult.VerificationError {
    /// The same error for another signed type.
    package init<Other>(_ other: VerificationResult<Other>.VerificationError) {
        switch other {
        case .revokedCertificate: self = .revokedCertificate
        case .invalidCertificateChain: self = .invalidCertificateChain
        case .invalidDeviceVerification: self = .invalidDeviceVerification
        case .invalidEncoding: self = .invalidEncoding
        case .invalidSignature: self = .invalidSignature
        case .missingRequiredProperties: self = .missingRequiredProperties
        }
    }

    /// The StoreKit 2 error of a JWS that ReceiptKit refused.
    init(_ error: ReceiptError) {
        switch error.code {
        case .invalidJWS, .invalidEncoding, .truncated, .trailingBytes, .invalidLength: self = .invalidEncoding
        case .signatureInvalid: self = .invalidSignature
        case .bundleIdentifierMismatch, .environmentMismatch, .deviceHashMismatch: self = .invalidDeviceVerification
        default: self = .invalidCertificateChain
        }
    }
}
