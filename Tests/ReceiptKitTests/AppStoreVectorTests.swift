import Foundation
import ReceiptKit
import Testing

@Suite("App Store and Xcode receipt vectors")
struct AppStoreVectorTests {
    @Test("every App Store receipt verifies against Apple Inc. Root at its creation date", arguments: Fixtures.appStoreReceipts)
    func verifiesAtCreationDate(name: String) throws {
        let verifier = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()])
        let verified = try verifier.verify(Fixtures.vector(name))
        #expect(verified.verificationDate == verified.receipt.creationDate)
        #expect(verified.certificateChain.count == 3)
        #expect(verified.certificateChain.last == (try Fixtures.appleRoot()))
        #expect(!verified.isXcodeReceipt)
    }

    @Test("every App Store receipt fails at the end of 2026 with an expired certificate", arguments: Fixtures.appStoreReceipts)
    func failsAfterExpiry(name: String) throws {
        let verifier = try ReceiptVerifier(trustedRoots: [Fixtures.appleRoot()])
        let receipt = try Fixtures.vector(name)
        #expect(throws: ReceiptError(.certificateExpired)) {
            try verifier.verify(receipt, options: .init(time: .date(Fixtures.after2026Expiry)))
        }
    }
}
