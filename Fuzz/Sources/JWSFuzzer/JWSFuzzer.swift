import Foundation
import ReceiptKit

/// The verifier under test: it trusts the JWS test root, the Xcode-shaped test certificate and, when the shared vectors
/// are present, the test CA of Apple's server library mocks, so that mutations of the seeds reach the chain, signature
/// and claim checks.
let verifier: JWSVerifier = {
    var roots: [X509Certificate] = [.openStoreKitJWSTestRoot, .openStoreKitXcodeTestCertificate]
    let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/../../../../shared/vectors/jws"
    if let root = try? ReceiptFile.readCertificate(atPath: vectors + "/asslp_testCA.der") { roots.append(root) }
    do {
        return try JWSVerifier(trustedRoots: roots)
    } catch {
        fatalError("cannot create the verifier: \(error)")
    }
}()

/// One input: the compact JWS parser, the `jws decode` document, and the verifier with Xcode JWS allowed.
/// Properties that must hold are checked with `precondition`, so a violation is reported as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    if let jws = try? CompactJWS(bytes: bytes) {
        // What `openstorekit jws decode` prints, in both layouts.
        _ = JWSJSON.document(for: jws, file: "input.jws", prettyPrinted: true)
        _ = JWSJSON.document(for: jws, prettyPrinted: false)
        precondition(jws.signature.count == 64, "a parsed JWS has a 64-byte signature")
    }
    if let text = String(validating: bytes, as: UTF8.self) {
        _ = try? CompactJWS(text)
    }
    // One verification per input; the time alternates between the payload's signedDate and a fixed instant, and the
    // strict X.509 rules are on for half the lengths (Apple's library mocks pass only without them).
    let time: JWSVerificationTime =
        size % 2 == 0 ? .signedDate : .date(Date(timeIntervalSince1970: 1_700_000_000))
    let options = JWSVerificationOptions(time: time, allowsXcode: true, strictChecks: size % 4 < 2)
    do {
        let verified = try verifier.verify(bytes: bytes, options: options)
        _ = JWSJSON.document(for: verified, file: "input.jws")
    } catch {
        precondition(!error.detail.isEmpty, "every error explains itself")
    }
    return 0
}
