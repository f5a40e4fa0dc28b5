import Foundation
import OpenStoreKitCLI
import Synchronization
import TestSupport
import Testing

private let vectors = SharedData.receipts

private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite("openstorekit receipt")
struct ReceiptCommandTests {
    let revenueCat = vectors.appendingPathComponent("revenuecat_base64encodedreceiptsample1.der").path
    let appleRoot = vectors.appendingPathComponent("AppleIncRootCertificate.cer").path

    @Test("verify: a real Apple receipt at its creation date prints Apple's JSON and exits 0", .requiresSharedData)
    func verifyApple() throws {
        try #require(FileManager.default.fileExists(atPath: revenueCat), "the shared receipt vectors are missing")
        let (code, out, _) = runInProcess([
            "receipt", "verify", revenueCat, "--root", appleRoot, "--bundle-id", "com.revenuecat.sampleapp",
        ])
        #expect(code == 0)
        let document = try json(out)
        let receipt = try #require(document["receipt"] as? [String: Any])
        #expect(receipt["bundle_id"] as? String == "com.revenuecat.sampleapp")
        #expect((receipt["in_app"] as? [Any])?.count == 9)
        #expect(document["verified"] as? Bool == true)
    }

    @Test(
        "verify: failures print a coded error and exit 1", .requiresSharedData,
        arguments: [
            (["--at", "2026-11-30T00:00:00Z"], 301),
            (["--bundle-id", "com.example.other"], 400),
        ])
    func verifyFailures(extra: [String], code expected: Int) throws {
        try #require(FileManager.default.fileExists(atPath: revenueCat), "the shared receipt vectors are missing")
        let (code, out, _) = runInProcess(["receipt", "verify", revenueCat, "--root", appleRoot] + extra)
        #expect(code == 1)
        let error = try #require(try json(out)["error"] as? [String: Any])
        #expect(error["code"] as? Int == expected)
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test("verify: the plist \"receipt\" is rejected cleanly", .requiresSharedData)
    func plist() throws {
        let path = vectors.appendingPathComponent("arv_deprecatedSinglesTypeExpiredAppleCert_receipt.b64").path
        try #require(FileManager.default.fileExists(atPath: path), "the shared receipt vectors are missing")
        let (code, out, _) = runInProcess(["receipt", "verify", path, "--root", appleRoot])
        #expect(code == 1)
        #expect(try json(out)["error"] is [String: Any])
    }

    @Test("dump prints the receipt marked unverified", .requiresSharedData)
    func dump() throws {
        try #require(FileManager.default.fileExists(atPath: revenueCat), "the shared receipt vectors are missing")
        let (code, out, _) = runInProcess(["receipt", "dump", revenueCat])
        #expect(code == 0)
        #expect(try json(out)["verified"] as? Bool == false)
    }

    @Test("Usage errors exit 2 and explain themselves")
    func usage() {
        #expect(runInProcess(["receipt"]).code == 2)
        #expect(runInProcess(["receipt", "verify", "x"]).err.contains("trusts nothing by default"))
        #expect(
            runInProcess(["receipt", "verify", "x", "--test-root", "--at", "someday"]).err.contains(
                "--at takes creation, now or an ISO 8601 date"))
        #expect(
            runInProcess(["receipt", "verify", "x", "--test-root", "--device-id", "nope"]).err.contains(
                "--device-id takes a UUID"))
        #expect(runInProcess(["receipt", "shred", "x"]).err.contains("unknown receipt action"))
        let missing = runInProcess(["receipt", "verify", "/nowhere/receipt", "--test-root"])
        #expect(missing.code == 2)
        #expect(missing.err.hasPrefix("openstorekit: /nowhere/receipt: no such file"))
    }

    @Test("demo --receipt-out writes a receipt that verifies against the test root for the demo's device")
    func demoReceipt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).receipt")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(runInProcess(["demo", "--receipt-out", path]).code == 0)
        let (code, out, _) = runInProcess([
            "receipt", "verify", path, "--test-root", "--bundle-id", "com.example.app",
            "--device-id", "00000000-0000-4000-8000-000000000001",
        ])
        #expect(code == 0)
        let receipt = try #require(try json(out)["receipt"] as? [String: Any])
        let products = (receipt["in_app"] as? [[String: Any]])?.compactMap { $0["product_id"] as? String }
        #expect(Set(products ?? []) == ["com.example.pro", "com.example.premium.monthly"])
        let otherRoot = RepositoryFiles.pki.appendingPathComponent("other-root.pem").path
        #expect(
            runInProcess(["receipt", "verify", path, "--root", otherRoot]).code == 1, "only the test root signs it")
    }
}
