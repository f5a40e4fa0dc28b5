import Foundation
import ReceiptKit
import TestSupport
import Testing

/// Paths to test data: the shared vectors beside the repository and the test PKI in `Receipts/pki/`.
enum Fixtures {
    /// The repository root.
    static let repositoryRoot = RepositoryFiles.root.path

    /// The shared receipt vectors (`vectors/receipts` of ``SharedData``); tests reading them carry
    /// `.requiresSharedData`.
    static let vectorsDirectory = SharedData.receipts.path

    /// `Receipts/pki` in the repository.
    static let pkiDirectory = RepositoryFiles.pki.path

    /// The path of a shared receipt vector; records a failure if the shared folder is there but the file is not.
    static func vectorPath(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let path = vectorsDirectory + "/" + name
        try #require(
            FileManager.default.fileExists(atPath: path),
            "test vector \(name) is missing: expected the shared vectors folder at \(vectorsDirectory)",
            sourceLocation: sourceLocation)
        return path
    }

    /// The bytes of a shared receipt vector (DER, or base64 decoded).
    static func vector(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try ReceiptFile.readReceipt(atPath: vectorPath(name, sourceLocation: sourceLocation))
    }

    /// Apple Inc. Root.
    static func appleRoot() throws -> X509Certificate {
        try ReceiptFile.readCertificate(atPath: vectorPath("AppleIncRootCertificate.cer"))
    }

    /// Xcode's StoreKit testing certificate.
    static func storeKitTestCertificate() throws -> X509Certificate {
        try ReceiptFile.readCertificate(atPath: vectorPath("tpinapp_StoreKitTestCertificate.cer"))
    }

    /// A certificate of the test PKI.
    static func pkiCertificate(_ name: String) throws -> X509Certificate {
        try ReceiptFile.readCertificate(atPath: pkiDirectory + "/\(name).pem")
    }

    /// A signing identity of the test PKI: leaf `name`, its intermediate and the root.
    static func identity(leaf name: String, intermediate: String = "intermediate") throws -> ReceiptSigningIdentity {
        let key = try String(contentsOfFile: pkiDirectory + "/\(name).key", encoding: .utf8)
        return try ReceiptSigningIdentity(
            certificates: [pkiCertificate(name), pkiCertificate(intermediate), pkiCertificate("root")],
            privateKeyPEM: key)
    }

    /// The App Store receipts among the vectors (signed under Apple Inc. Root).
    static let appStoreReceipts = [
        "arv_grandUnifiedExpiredAppleCert_receipt.der",
        "arv_hannes_mac_mindnode_2_receipt.der",
        "arv_hannes_mac_mindnode_receipt.der",
        "arv_mac_mindnode_rebought_receipt.der",
        "arv_mindnode_ios_michaelsandbox_receipt1.der",
        "arv_mindnode_ios_michaelsandbox_receipt2.der",
        "kvitto_demo_newReceipt.der",
        "kvitto_receipt_production_xcode.der",
        "revenuecat_base64encodedreceiptsample1.b64",
        "revenuecat_base64encodedreceiptsample1.der",
        "tpinapp_receipt-production.der",
        "tpinapp_receipt-sandbox-g5.der",
        "tpinapp_receipt-sandbox-legacy.der",
    ]

    /// The Xcode (StoreKit testing) receipts among the vectors.
    static let xcodeReceipts = [
        "asslp_xcode-app-receipt-empty.der",
        "asslp_xcode-app-receipt-with-transaction.der",
        "kvitto_storeKitTestReceipt_xcode.der",
        "tpinapp_receipt-xcode-with-purchases.der",
    ]

    /// An instant after every App Store vector's signing certificate expired (the newest leaf ends 2026-08-23).
    static let after2026Expiry = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z

    /// A fixed creation date for receipts the tests issue: 2025-01-15T10:00:00Z.
    static let issueDate = Date(timeIntervalSince1970: 1_736_935_200)
}
