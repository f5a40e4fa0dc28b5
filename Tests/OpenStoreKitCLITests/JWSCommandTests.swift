import Foundation
import ReceiptKit
import TestSupport
import Testing

/// Where these tests find Apple's JWS vectors: the shared test data (tests that read them carry `.requiresSharedData`).
private enum JWSVectors {
    static func path(_ name: String) -> String { SharedData.jws.appendingPathComponent(name).path }
    static let testRoot = path("asslp_testCA.der")
}

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

private func documents(_ text: String) throws -> [[String: Any]] {
    // One document per file; pretty documents start with "{" at the start of a line.
    let starts = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    var chunks: [String] = []
    for (_, line) in starts {
        if line == "{" || (line.hasPrefix("{") && line.hasSuffix("}")) {
            chunks.append(String(line))
        } else if !chunks.isEmpty {
            chunks[chunks.count - 1] += "\n" + line
        }
    }
    return try chunks.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
}

@Suite("openstorekit jws")
struct JWSCommandTests {
    @Test(
        "verify: Apple's mock transaction under Apple's test root prints the payload and exits 0",
        .requiresSharedData)
    func verifyMock() throws {
        let run = try openstorekit([
            "jws", "verify", JWSVectors.path("asslp_mock_transactionInfo.jws"), "--root", JWSVectors.testRoot,
            "--no-strict", "--environment", "Sandbox", "--bundle-id", "com.example",
        ])
        #expect(run.code == 0, "\(run.stderr)")
        let document = try #require(try documents(run.stdout).first)
        #expect(document["verified"] as? Bool == true)
        let payload = try #require(document["payload"] as? [String: Any])
        #expect(payload["bundleId"] as? String == "com.example")
        #expect(payload["signedDate"] as? Int64 == 1_672_956_154_000)
        #expect(run.stdout.contains(#""environment": "Sandbox""#))
    }

    @Test(
        "verify: refusals print a coded error object and exit 1",
        .requiresSharedData,
        arguments: [
            ("asslp_mock_transactionInfo.jws", ["--no-strict", "--bundle-id", "com.example.x"], 400),
            ("asslp_mock_testNotification.jws", ["--no-strict", "--environment", "Production"], 404),
            ("asslp_mock_transactionInfo.jws", [], 305),
            ("asslp_mock_legacyTransaction.jws", [], 600),
            ("asslp_mock_missingX5CHeaderClaim.jws", ["--no-strict"], 601),
            ("asslp_xcode-signed-transaction.jws", [], 602),
            ("asslp_mock_wrongBundleId.jws", ["--no-strict", "--bundle-id", "com.examplex"], 400),
        ])
    func refusals(file: String, extra: [String], expected: Int) throws {
        let path = JWSVectors.path(file)
        let run = try openstorekit(["jws", "verify", path, "--root", JWSVectors.testRoot] + extra)
        #expect(run.code == 1, "\(run.stdout) \(run.stderr)")
        let document = try #require(try documents(run.stdout).first)
        let error = try #require(document["error"] as? [String: Any])
        #expect(error["code"] as? Int == expected, "\(error)")
        #expect(error["file"] as? String == path)
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test(
        "verify --allow-xcode: Xcode-signed data verifies under Xcode's certificate, with its dates as signed",
        .requiresSharedData)
    func xcode() throws {
        let temporary = try TemporaryDirectory(prefix: "jws-xcode")
        defer { temporary.remove() }
        let directory = temporary.url
        let jws = try CompactJWS(contentsOfFile: JWSVectors.path("asslp_xcode-signed-transaction.jws"))
        let first = try #require(jws.certificateChain?.first)
        let certificate = try #require(Data(base64Encoded: first))
        let root = directory.appendingPathComponent("StoreKitTestCertificate.cer")
        try certificate.write(to: root)
        let run = try openstorekit([
            "jws", "verify", JWSVectors.path("asslp_xcode-signed-transaction.jws"), "--root", root.path,
            "--allow-xcode", "--environment", "Xcode", "--bundle-id", "com.example.naturelab.backyardbirds.example",
        ])
        #expect(run.code == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains(#""purchaseDate": 1697679936049.7297"#))
    }

    @Test("verify: JWS from the simulator's signer verify with --test-root, or the root as PEM or DER")
    func ownSigner() throws {
        let temporary = try TemporaryDirectory(prefix: "jws-own")
        defer { temporary.remove() }
        let directory = temporary.url
        var transaction = JWSTransaction()
        transaction.bundleId = "com.example.app"
        transaction.environment = .sandbox
        transaction.productId = "com.example.coins100"
        transaction.price = 990
        transaction.signedDate = JWSDate(millisecondsSince1970: 1_736_935_200_000)
        let file = directory.appendingPathComponent("transaction.jws")
        try Data((try JWSSigner().sign(transaction) + "\n").utf8).write(to: file)
        let pki = repository.appendingPathComponent("Receipts/jws").path
        for roots in [["--test-root"], ["--root", pki + "/root.pem"], ["--root", pki + "/root.cer"]] {
            let run = try openstorekit(["jws", "verify", file.path, "--environment", "Sandbox"] + roots)
            #expect(run.code == 0, "\(roots): \(run.stdout) \(run.stderr)")
            #expect(run.stdout.contains(#""price": 990"#))
        }
        let late = try openstorekit([
            "jws", "verify", file.path, "--test-root", "--at", "2061-01-01T00:00:00Z", "--compact",
        ])
        #expect(late.code == 1)
        #expect(late.stdout.contains(#""code":301"#), "\(late.stdout)")
        let other = try openstorekit(["jws", "verify", file.path, "--root", pki + "/other-root.pem"])
        #expect(other.code == 1)
        #expect(other.stdout.contains(#""code": 300"#), "\(other.stdout)")

        // Several files: one document each; one refusal makes the exit code 1.
        let garbage = directory.appendingPathComponent("garbage.jws")
        try Data("not a jws".utf8).write(to: garbage)
        let both = try openstorekit(["jws", "verify", file.path, garbage.path, "--test-root"])
        #expect(both.code == 1)
        let parsed = try documents(both.stdout)
        #expect(parsed.count == 2)
        #expect(parsed.first?["verified"] as? Bool == true)
        #expect((parsed.last?["error"] as? [String: Any])?["code"] as? Int == 600)

        let huge = directory.appendingPathComponent("huge.jws")
        try Data(repeating: UInt8(ascii: "A"), count: CompactJWS.maximumLength + 4096).write(to: huge)
        let tooLarge = try openstorekit(["jws", "verify", huge.path, "--test-root"])
        #expect(tooLarge.code == 1)
        #expect(tooLarge.stdout.contains(#""code": 600"#), "\(tooLarge.stdout)")

        let none = directory.appendingPathComponent("none").path
        let missing = try openstorekit(["jws", "verify", none, "--test-root"])
        #expect(missing.code == 2)
        #expect(missing.stderr.hasPrefix("openstorekit: \(none): no such file"))
        let folder = try openstorekit(["jws", "verify", directory.path, "--test-root"])
        #expect(folder.code == 1)
        #expect(folder.stdout.contains(#""code": 500"#))
    }

    @Test("decode prints header and payload unverified; a file that is not a JWS exits 1 with code 600")
    func decode() throws {
        let temporary = try TemporaryDirectory(prefix: "jws-decode")
        defer { temporary.remove() }
        let directory = temporary.url
        let file = directory.appendingPathComponent("t.jws")
        try Data(try JWSSigner().sign(payloadJSON: Array(#"{"bundleId":"b","environment":"Sandbox"}"#.utf8)).utf8)
            .write(to: file)
        let run = try openstorekit(["jws", "decode", file.path])
        #expect(run.code == 0)
        let document = try #require(try documents(run.stdout).first)
        #expect(document["verified"] as? Bool == false)
        #expect((document["header"] as? [String: Any])?["alg"] as? String == "ES256")
        #expect((document["payload"] as? [String: Any])?["bundleId"] as? String == "b")
        let garbage = directory.appendingPathComponent("g.jws")
        try Data([0xFF, 0x00, 0x2E, 0x41]).write(to: garbage)
        let bad = try openstorekit(["jws", "decode", garbage.path])
        #expect(bad.code == 1)
        #expect(bad.stdout.contains(#""code": 600"#))
    }

    @Test("usage errors exit 2 and explain themselves; help lists the command")
    func usage() throws {
        let cases: [([String], String)] = [
            (["jws"], "jws needs an action"),
            (["jws", "sign"], "unknown jws action"),
            (["jws", "verify", "--test-root"], "at least one JWS file"),
            (["jws", "verify", "x.jws"], "trusts nothing by default"),
            (["jws", "verify", "x.jws", "--test-root", "--environment", "sandbox"], "--environment takes"),
            (["jws", "verify", "x.jws", "--test-root", "--at", "yesterday"], "--at takes"),
            (["jws", "decode"], "exactly one JWS file"),
            (["jws", "verify", "x.jws", "--test-root", "--bogus"], "unknown option --bogus"),
        ]
        for (arguments, message) in cases {
            let run = try openstorekit(arguments)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("openstorekit help jws"), "\(arguments): \(run.stderr)")
        }
        let help = try openstorekit(["help", "jws"])
        #expect(help.code == 0)
        #expect(help.stdout.hasPrefix("Usage: openstorekit jws verify FILE..."))
        let verifyHelp = try openstorekit(["jws", "verify", "--help"])
        #expect(verifyHelp.code == 0 && verifyHelp.stdout.hasPrefix("Usage: openstorekit jws verify"))
        let overview = try openstorekit(["--help"])
        #expect(overview.stdout.contains("  jws         Verify or decode StoreKit 2 signed data"))
    }
}
