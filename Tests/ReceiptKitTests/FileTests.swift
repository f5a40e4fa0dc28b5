import Foundation
import ReceiptKit
import TestSupport
import Testing

@Suite("Reading receipt and certificate files")
struct FileTests {
    @Test("receipts: DER and base64 give the same bytes", .requiresSharedData)
    func receipts() throws {
        let der = try ReceiptFile.readReceipt(atPath: Fixtures.vectorPath("revenuecat_base64encodedreceiptsample1.der"))
        let base64 = try ReceiptFile.readReceipt(
            atPath: Fixtures.vectorPath("revenuecat_base64encodedreceiptsample1.b64"))
        #expect(der == base64)
        #expect(der.first == 0x30)
        let wrapped = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        #expect(try ReceiptFile.decodeReceipt(Array(wrapped.utf8)) == der)
        let unpadded = Data(der).base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(try ReceiptFile.decodeReceipt(Array(unpadded.utf8)) == der)
    }

    @Test("errors name the file")
    func errorsNameTheFile() throws {
        let missing = "/nonexistent/receipt.der"
        let error = try #require(throws: ReceiptError.self) { try ReceiptFile.readReceipt(atPath: missing) }
        #expect(error.code == .fileUnreadable)
        #expect(error.file == missing)
        #expect(error.message.contains(missing))

        let temporary = try TemporaryDirectory(prefix: "receiptkit")
        defer { temporary.remove() }
        let directory = temporary.url
        let garbage = directory.appendingPathComponent("garbage.txt").path
        try Data("this is ~not~ a receipt".utf8).write(to: URL(fileURLWithPath: garbage))
        let invalid = try #require(throws: ReceiptError.self) { try ReceiptFile.readReceipt(atPath: garbage) }
        #expect(invalid.code == .invalidEncoding)
        #expect(invalid.file == garbage)
        let notCertificate = try #require(throws: ReceiptError.self) {
            try ReceiptFile.readCertificate(atPath: garbage)
        }
        #expect(notCertificate.code == .certificateUnreadable)
        #expect(notCertificate.file == garbage)
        let empty = directory.appendingPathComponent("empty").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: ReceiptError(.invalidEncoding)) { try ReceiptFile.readReceipt(atPath: empty) }
        #expect(throws: ReceiptError(.fileUnreadable)) { try ReceiptFile.readReceipt(atPath: directory.path) }
        let broken = directory.appendingPathComponent("broken.cer").path
        try Data([0x30, 0x03, 0x02, 0x01, 0x01]).write(to: URL(fileURLWithPath: broken))
        let brokenError = try #require(throws: ReceiptError.self) { try ReceiptFile.readCertificate(atPath: broken) }
        #expect(brokenError.code == .certificateUnreadable)
        #expect(brokenError.file == broken)
    }

    @Test("certificates: DER and PEM give the same certificate", .requiresSharedData)
    func certificates() throws {
        let pem = try ReceiptFile.readCertificate(atPath: Fixtures.pkiDirectory + "/root.pem")
        let der = try ReceiptFile.readCertificate(atPath: Fixtures.pkiDirectory + "/root.cer")
        #expect(pem == der)
        #expect(pem.subject.contains("OpenStoreKit Test Root CA"))
        #expect(pem.issuer == pem.subject)
        let apple = try Fixtures.appleRoot()
        #expect(apple.subject.contains("Apple Root CA"))
        #expect(apple.notAfter == Date(timeIntervalSince1970: 2_054_670_036))  // 2035-02-09T21:40:36Z
        let chain = try X509Certificate.certificates(
            pemEncoded: String(contentsOfFile: Fixtures.pkiDirectory + "/leaf.pem", encoding: .utf8)
                + String(contentsOfFile: Fixtures.pkiDirectory + "/intermediate.pem", encoding: .utf8))
        #expect(chain.count == 2)
        #expect(throws: ReceiptError(.certificateUnreadable)) { try X509Certificate(pemEncoded: "nothing here") }
        #expect(throws: ReceiptError(.certificateUnreadable)) { try X509Certificate(derEncoded: [0x30, 0x00]) }
    }

    @Test(
        "a receipt, certificate or JWS file larger than its bound is refused from its size, naming the file and bound")
    func bounds() throws {
        let temporary = try TemporaryDirectory(prefix: "receiptkit")
        defer { temporary.remove() }
        // Sparse files: reading them whole is what the bound prevents.
        func sparse(_ name: String, _ start: String, size: Int) throws -> String {
            let url = temporary.url.appendingPathComponent(name)
            try Data(start.utf8).write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            return url.path
        }
        let receipt = try sparse("receipt.b64", "MIIB", size: ReceiptFile.maximumReceiptLength + 1)
        let error = try #require(throws: ReceiptError.self) { try ReceiptFile.readReceipt(atPath: receipt) }
        #expect(error.code == .fileUnreadable)
        #expect(error.file == receipt)
        #expect(
            error.detail
                == "the file holds 16777217 bytes, more than the 16777216 bytes (16 MiB) a receipt file may hold")
        let certificate = try sparse("root.pem", "-----BEGIN CERTIFICATE-----", size: (1 << 20) + 1)
        let certificateError = try #require(throws: ReceiptError.self) {
            try ReceiptFile.readCertificate(atPath: certificate)
        }
        #expect(certificateError.code == .fileUnreadable)
        #expect(certificateError.detail.hasSuffix("(1 MiB) a certificate file may hold"), "\(certificateError.detail)")
        let jws = try sparse("large.jws", "eyJ", size: CompactJWS.maximumLength + 1)
        let jwsError = try #require(throws: ReceiptError.self) { try CompactJWS(contentsOfFile: jws) }
        #expect(jwsError.code == .invalidJWS)
        #expect(jwsError.file == jws)
        #expect(jwsError.detail.hasSuffix("(1 MiB) a JWS file may hold"), "\(jwsError.detail)")
        if FileManager.default.fileExists(atPath: "/dev/zero") {
            // A device has no size: it is read to one byte past the bound.
            let endless = try #require(throws: ReceiptError.self) { try ReceiptFile.readReceipt(atPath: "/dev/zero") }
            #expect(endless.code == .fileUnreadable)
            #expect(endless.detail.hasPrefix("the file holds more than 16777216 bytes"), "\(endless.detail)")
        }
    }
}
