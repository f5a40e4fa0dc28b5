import Foundation
import ReceiptKit

/// A real App Store receipt with 187 purchases, `tpinapp_receipt-sandbox-legacy.der` (SHA-1, 79 KB), and Apple's
/// root, read from the shared test vectors beside the repository (`../shared/vectors/receipts/`).
struct LegacyReceiptFixture {
    /// The receipt's file name.
    static let fileName = "tpinapp_receipt-sandbox-legacy.der"
    /// The number of purchases it lists.
    static let purchases = 187

    /// The signed receipt (PKCS#7).
    let receipt: [UInt8]
    /// Its payload and signature, taken out by OpenSSL.
    let signedData: OpenSSLSignedData
    /// Its creation date, when its chain is checked.
    let creationDate: Date
    /// Apple Inc. Root, as ReceiptKit reads it.
    let appleRoot: X509Certificate
    /// Apple Inc. Root, decoded by OpenSSL.
    let appleRootForOpenSSL: OpenSSLCertificate
    /// The receipt's signing certificate, decoded by OpenSSL.
    let signerForOpenSSL: OpenSSLCertificate

    /// Why the fixture is missing when it is, for the report.
    static var missingReason: String? {
        let folder = RepositoryPaths.receiptVectors
        let path = folder.appendingPathComponent(fileName).path
        return FileManager.default.fileExists(atPath: path)
            ? nil
            : "skipped the 187-purchase receipt: \(path) is missing (the shared test vectors are expected in "
                + "../shared/vectors beside the repository)"
    }

    /// Reads the receipt and the root; `nil` when the shared vectors are not there.
    static func load() throws -> LegacyReceiptFixture? {
        guard missingReason == nil else { return nil }
        return try LegacyReceiptFixture(folder: RepositoryPaths.receiptVectors)
    }

    private init(folder: URL) throws {
        let receiptPath = folder.appendingPathComponent(Self.fileName).path
        let rootPath = folder.appendingPathComponent("AppleIncRootCertificate.cer").path
        let model: AppReceipt
        do {
            receipt = try ReceiptFile.readReceipt(atPath: receiptPath)
            appleRoot = try ReceiptFile.readCertificate(atPath: rootPath)
            model = try AppReceipt(unverifiedReceipt: receipt)
        } catch {
            throw BenchmarkError("cannot read the 187-purchase receipt or Apple's root: \(error)")
        }
        guard model.inAppPurchases.count == Self.purchases else {
            throw BenchmarkError(
                "\(Self.fileName) lists \(model.inAppPurchases.count) purchases, not \(Self.purchases)")
        }
        creationDate = model.creationDate
        signedData = try OpenSSLSignedData(receipt: receipt)
        appleRootForOpenSSL = try OpenSSLCertificate(der: appleRoot.derEncoded)
        let verifier: ReceiptVerifier
        let verified: VerifiedReceipt
        do {
            verifier = try ReceiptVerifier(trustedRoots: [appleRoot])
            verified = try verifier.verify(receipt)
        } catch {
            throw BenchmarkError("\(Self.fileName) does not verify against Apple's root: \(error)")
        }
        signerForOpenSSL = try OpenSSLCertificate(der: verified.certificateChain[0].derEncoded)
    }
}
