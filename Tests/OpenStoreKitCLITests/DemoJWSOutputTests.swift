import Foundation
import ReceiptKit
import TestSupport
import Testing

@Suite("demo --jws-out: the demo's signed data, one file each")
struct DemoJWSOutputTests {
    @Test("Every file verifies against Receipts/jws/root.pem at its signed date, and says in its name what it is")
    func everyFileVerifies() throws {
        let temporary = try TemporaryDirectory(prefix: "demo-jws")
        defer { temporary.remove() }
        let directory = temporary.file("signed/data")
        let run = runInProcess(["demo", "--jws-out", directory, "--log", temporary.file("demo.jsonl")])
        #expect(run.code == 0, "\(run.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names.allSatisfy { $0.hasSuffix(".jws") })
        #expect(names.contains("app-transaction-default.jws"))
        #expect(names.filter { $0.hasPrefix("renewal-info-") }.count == 1, "the demo's one subscription: \(names)")
        let transactions = names.filter { $0.hasPrefix("transaction-") }
        #expect(transactions.count >= 2, "\(names)")

        let rootPath = RepositoryFiles.root.appendingPathComponent("Receipts/jws/root.pem").path
        let verifier = try JWSVerifier(trustedRoots: [ReceiptFile.readCertificate(atPath: rootPath)])
        let options = JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            let verified = try verifier.verify(bytes: bytes, options: options)
            if name.hasPrefix("transaction-") {
                let payload = try verified.decode(JWSTransaction.self)
                let id = try #require(payload.transactionId)
                let product = try #require(payload.productId)
                #expect(name == "transaction-\(id)-\(product).jws")
                #expect(payload.transactionReason != nil && payload.price != nil)
            } else if name.hasPrefix("renewal-info-") {
                let payload = try verified.decode(JWSRenewalInfo.self)
                #expect(name.hasPrefix("renewal-info-\(payload.originalTransactionId ?? "?")-"))
                #expect(payload.autoRenewStatus != nil)
            } else {
                let payload = try verified.decode(JWSAppTransaction.self)
                #expect(payload.receiptType == .sandbox && payload.appTransactionId != nil)
            }
        }
        let command = runInProcess(
            ["jws", "verify"] + names.map { directory + "/" + $0 } + [
                "--root", rootPath, "--bundle-id", "com.example.app", "--environment", "Sandbox",
            ])
        #expect(command.code == 0, "\(command.out) \(command.err)")
    }

    @Test("--jws-out naming a file, not a directory, is a usage error before the demo runs")
    func fileRefused() throws {
        let temporary = try TemporaryDirectory(prefix: "demo-jws-file")
        defer { temporary.remove() }
        let file = temporary.file("taken")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file))
        let run = runInProcess(["demo", "--jws-out", file, "--log", temporary.file("demo.jsonl")])
        #expect(run.code == 2)
        #expect(run.err.contains("--jws-out") && run.err.contains("not a directory"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: temporary.file("demo.jsonl")), "nothing ran")
    }
}
