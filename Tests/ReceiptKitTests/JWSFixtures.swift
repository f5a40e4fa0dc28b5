import Foundation
import ReceiptKit
import TestSupport
import Testing

/// Where the JWS tests find their data: Apple's JWS vectors in the shared test data (``SharedData/jws``; tests that
/// read them carry `.requiresSharedData`), and the JWS test PKI in `Receipts/jws/`.
enum JWSFixtures {
    /// The shared JWS vectors' folder.
    static var vectorsDirectory: String { SharedData.jws.path }

    /// `Receipts/jws` in the repository.
    static let pkiDirectory = Fixtures.repositoryRoot + "/Receipts/jws"

    /// The path of a shared JWS vector.
    static func path(_ name: String) -> String {
        vectorsDirectory + "/" + name
    }

    /// The text of a shared JWS vector.
    static func jws(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// A certificate among the shared vectors (DER or PEM).
    static func certificate(_ name: String) throws -> X509Certificate {
        try ReceiptFile.readCertificate(atPath: path(name))
    }

    /// Apple's test root for the mock JWS.
    static func appleTestRoot() throws -> X509Certificate {
        try certificate("asslp_testCA.der")
    }

    /// A certificate of the JWS test PKI.
    static func pkiCertificate(_ name: String) throws -> X509Certificate {
        try ReceiptFile.readCertificate(atPath: pkiDirectory + "/\(name).pem")
    }

    /// A signing identity of the JWS test PKI: leaf `name`, its intermediate and the root.
    static func identity(leaf name: String, intermediate: String = "intermediate") throws -> JWSSigningIdentity {
        let key = try String(contentsOfFile: pkiDirectory + "/\(name).key", encoding: .utf8)
        return try JWSSigningIdentity(
            certificates: [pkiCertificate(name), pkiCertificate(intermediate), pkiCertificate("root")],
            privateKeyPEM: key)
    }

    /// The identity of Apple's x509 test chain (`asslp_x509test_*` with the leaf key `asjava_testLeaf.key`), which
    /// mints JWS that chain to `asslp_x509test_ROOT_CA.der`.
    static func appleTestChainIdentity(
        _ names: [String] = ["LEAF_CERT", "INTERMEDIATE_CA", "ROOT_CA"]
    ) throws -> JWSSigningIdentity {
        let key = try String(contentsOfFile: path("asjava_testLeaf.key"), encoding: .utf8)
        return try JWSSigningIdentity(
            certificates: names.map { try certificate("asslp_x509test_\($0).der") }, privateKeyPEM: key)
    }

    /// The instant at which Apple's x509 test chain is valid (its tests' EFFECTIVE_DATE).
    static let appleChainEffectiveDate = Date(timeIntervalSince1970: 1_761_962_975)

    /// An instant at which Apple's x509 test chain has expired.
    static let appleChainExpiredDate = Date(timeIntervalSince1970: 2_280_946_846)

    /// A payload signed in the tests: a transaction of the simulator's shape.
    static func transaction(bundle: String = "com.example.app", environment: JWSEnvironment = .sandbox)
        -> JWSTransaction
    {
        var transaction = JWSTransaction()
        transaction.transactionId = "2000000000000001"
        transaction.originalTransactionId = "2000000000000001"
        transaction.bundleId = bundle
        transaction.productId = "com.example.premium.monthly"
        transaction.subscriptionGroupIdentifier = "21000001"
        transaction.purchaseDate = JWSDate(millisecondsSince1970: 1_736_935_200_000)
        transaction.originalPurchaseDate = JWSDate(millisecondsSince1970: 1_736_935_200_000)
        transaction.expiresDate = JWSDate(millisecondsSince1970: 1_739_613_600_000)
        transaction.quantity = 1
        transaction.type = .autoRenewable
        transaction.inAppOwnershipType = .purchased
        transaction.signedDate = JWSDate(millisecondsSince1970: 1_736_935_200_123)
        transaction.environment = environment
        transaction.transactionReason = .purchase
        transaction.storefront = "USA"
        transaction.storefrontId = "143441"
        transaction.currency = "USD"
        transaction.price = 4990
        transaction.offerType = .introductory
        transaction.offerDiscountType = .freeTrial
        transaction.offerPeriod = "P1W"
        return transaction
    }

    /// Expects `body` to throw a ReceiptError with `code`.
    static func expectCode(
        _ code: ReceiptError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected \(code), but it passed. \(comment ?? "")", sourceLocation: sourceLocation)
        } catch let error as ReceiptError {
            #expect(error.code == code, "\(error) \(comment ?? "")", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(code), got \(error). \(comment ?? "")", sourceLocation: sourceLocation)
        }
    }
}
