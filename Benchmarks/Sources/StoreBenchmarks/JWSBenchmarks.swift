import Foundation
import ReceiptKit

extension BenchmarkSuite {
    /// `jws.sign`, `jws.verify.warm` and `jws.verify.cold`: ReceiptKit's JWS layer beside OpenSSL doing the same
    /// cryptography on the same bytes.
    mutating func addJWSBenchmarks() {
        let options = self.options
        add(
            Benchmark(
                name: "jws.sign",
                unit: "JWS/s",
                about: """
                    JWSSigner.sign(payloadJSON:) of a signed transaction's payload (JSON check, base64url, ES256 \
                    with the JWS test PKI's leaf, DER to R||S). Baseline: a raw ECDSA P-256/SHA-256 \
                    EVP_DigestSign of the same signing input, key and context reused.
                    """,
                target: 0.8,
                body: .custom { _ in try JWSBenchmarks.sign(options) }
            )
        )
        add(
            Benchmark(
                name: "jws.verify.warm",
                unit: "JWS/s",
                about: """
                    One JWSVerifier, the signer's chain cached, verifies the same transaction JWS again and again \
                    (decoding, ES256, claims). Baseline: a raw ES256 EVP_DigestVerify of the same signature over \
                    the same signing input, key and context reused.
                    """,
                target: 0.6,
                body: .custom { _ in try JWSBenchmarks.verifyWarm(options) }
            )
        )
        add(
            Benchmark(
                name: "jws.verify.cold",
                unit: "JWS/s",
                about: """
                    A new JWSVerifier (nothing cached) per JWS. Baseline: OpenSSL chain verification (new \
                    X509_STORE with the root, d2i_X509 of leaf and intermediate, strict X509_verify_cert) and an \
                    ES256 EVP_DigestVerify with the leaf's key.
                    """,
                target: 0.8,
                body: .custom { _ in try JWSBenchmarks.verifyCold(options) }
            )
        )
    }
}

/// The bodies of the JWS benchmarks.
enum JWSBenchmarks {
    /// What they work on: a transaction JWS signed by the test PKI, its parts, and the options it verifies with.
    struct Fixture {
        let transaction: JWSTransaction
        let payloadJSON: [UInt8]
        let jws: String
        let signingInput: [UInt8]
        let derSignature: [UInt8]
        let leafDER: [UInt8]
        let intermediateDER: [UInt8]
        let leaf: OpenSSLCertificate
        let root: OpenSSLCertificate
        let options = JWSVerificationOptions(bundleIdentifier: "com.example.app", environment: .sandbox)

        init() throws {
            var transaction = JWSTransaction()
            transaction.transactionId = "2000000000000001"
            transaction.originalTransactionId = "2000000000000001"
            transaction.webOrderLineItemId = "2000000000000002"
            transaction.bundleId = "com.example.app"
            transaction.productId = "com.example.premium.monthly"
            transaction.subscriptionGroupIdentifier = "21000001"
            transaction.purchaseDate = JWSDate(millisecondsSince1970: 1_736_935_200_000)
            transaction.originalPurchaseDate = JWSDate(millisecondsSince1970: 1_736_935_200_000)
            transaction.expiresDate = JWSDate(millisecondsSince1970: 1_739_613_600_000)
            transaction.quantity = 1
            transaction.type = .autoRenewable
            transaction.inAppOwnershipType = .purchased
            transaction.signedDate = JWSDate(millisecondsSince1970: 1_736_935_200_000)
            transaction.environment = .sandbox
            transaction.transactionReason = .purchase
            transaction.storefront = "USA"
            transaction.storefrontId = "143441"
            transaction.currency = "USD"
            transaction.price = 4990
            transaction.appTransactionId = "704289572311724543"
            self.transaction = transaction
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            payloadJSON = [UInt8](try encoder.encode(transaction))
            jws = try JWSSigner().sign(payloadJSON: payloadJSON)
            let decoded = try CompactJWS(jws)
            let lastDot = try jws.utf8.lastIndex(of: UInt8(ascii: ".")).unwrap("a JWS without dots")
            signingInput = Array(jws.utf8[..<lastDot])
            derSignature = Self.der(decoded.signature)
            let chain = try decoded.certificateChain.unwrap("a JWS without x5c")
            leafDER = [UInt8](try Data(base64Encoded: chain[0]).unwrap("x5c[0] is not base64"))
            intermediateDER = [UInt8](try Data(base64Encoded: chain[1]).unwrap("x5c[1] is not base64"))
            leaf = try OpenSSLCertificate(der: leafDER)
            root = try OpenSSLCertificate(der: X509Certificate.openStoreKitJWSTestRoot.derEncoded)
        }

        /// `Receipts/jws/leaf.key`, the key the JWS test identity embeds.
        func leafKey() throws -> OpenSSLPrivateKey {
            let url = RepositoryPaths.root.appendingPathComponent("Receipts/jws/leaf.key")
            guard let pem = try? String(contentsOf: url, encoding: .utf8) else {
                throw BenchmarkError("cannot read the JWS test PKI's leaf key at \(url.path)")
            }
            return try OpenSSLPrivateKey(pemEncoded: pem)
        }

        /// R||S as a DER ECDSA-Sig-Value (what OpenSSL verifies).
        static func der(_ raw: [UInt8]) -> [UInt8] {
            func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
                var value = Array(bytes.drop { $0 == 0 })
                if value.isEmpty { value = [0] }
                if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
                return [0x02, UInt8(value.count)] + value
            }
            let body = integer(raw[0..<32]) + integer(raw[32..<64])
            return [0x30, UInt8(body.count)] + body
        }
    }

    static func sign(_ options: RunOptions) throws -> BenchmarkReport {
        let fixture = try Fixture()
        let openSSL = try OpenSSLES256(signingWith: fixture.leafKey())
        let verifier = try OpenSSLES256(verifyingWith: fixture.leaf)
        guard let signature = openSSL.sign(fixture.signingInput), verifier.verify(signature, over: fixture.signingInput)
        else {
            throw BenchmarkError("OpenSSL's ES256 signature of the signing input does not verify with the leaf")
        }
        let check = try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
        _ = try check.verify(JWSSigner().sign(payloadJSON: fixture.payloadJSON), options: fixture.options)
        let count = options.quick ? 5 : 2_000
        let signer = JWSSigner()
        let payload = fixture.payloadJSON
        let transaction = fixture.transaction
        let comparison = PairedComparison(
            name: "jws.sign",
            unit: "JWS/s",
            about: "JWSSigner.sign(payloadJSON:) against a raw ES256 EVP_DigestSign of the same signing input",
            target: 0.8,
            figure: Workload("JWSSigner.sign(payloadJSON:)", items: count) {
                {
                    successes(count) {
                        guard let jws = try? signer.sign(payloadJSON: payload) else { return false }
                        blackHole(jws)
                        return true
                    }
                }
            },
            baseline: Workload("EVP_DigestSign, ECDSA P-256/SHA-256, key reused", role: .baseline, items: count) {
                let input = fixture.signingInput
                return {
                    successes(count) {
                        guard let signature = openSSL.sign(input) else { return false }
                        blackHole(signature)
                        return true
                    }
                }
            },
            rows: [
                .variant(
                    Workload("JWSSigner.sign(_:) of the JWSTransaction model (JSONEncoder included)", items: count) {
                        {
                            successes(count) {
                                guard let jws = try? signer.sign(transaction) else { return false }
                                blackHole(jws)
                                return true
                            }
                        }
                    })
            ]
        )
        var report = try comparison.run(options)
        report.notes.append(
            "payload \(fixture.payloadJSON.count) bytes; signing input \(fixture.signingInput.count) bytes; JWS "
                + "\(fixture.jws.utf8.count) bytes")
        return report
    }

    static func verifyWarm(_ options: RunOptions) throws -> BenchmarkReport {
        let fixture = try Fixture()
        let floor = try OpenSSLES256(verifyingWith: fixture.leaf)
        guard floor.verify(fixture.derSignature, over: fixture.signingInput) else {
            throw BenchmarkError("EVP_DigestVerify rejects the JWS signature")
        }
        let count = options.quick ? 10 : 5_000
        let jws = fixture.jws
        let verifyOptions = fixture.options
        let comparison = PairedComparison(
            name: "jws.verify.warm",
            unit: "JWS/s",
            about: "one JWSVerifier, its chain cached, against a raw ES256 EVP_DigestVerify of the same signature",
            target: 0.6,
            figure: Workload("JWSVerifier, signer's chain cached", items: count) {
                let verifier: JWSVerifier
                do {
                    verifier = try JWSVerifier(trustedRoots: [.openStoreKitJWSTestRoot])
                    _ = try verifier.verify(jws, options: verifyOptions)
                } catch {
                    return { 0 }
                }
                return {
                    successes(count) {
                        guard let verified = try? verifier.verify(jws, options: verifyOptions) else { return false }
                        blackHole(verified)
                        return true
                    }
                }
            },
            baseline: Workload(
                "EVP_DigestVerify, ECDSA P-256/SHA-256 over the signing input, key reused", role: .baseline,
                items: count
            ) {
                let signature = fixture.derSignature
                let input = fixture.signingInput
                return { successes(count) { floor.verify(signature, over: input) } }
            }
        )
        var report = try comparison.run(options)
        report.notes.append("JWS \(fixture.jws.utf8.count) bytes; payload \(fixture.payloadJSON.count) bytes")
        return report
    }

    static func verifyCold(_ options: RunOptions) throws -> BenchmarkReport {
        let fixture = try Fixture()
        guard
            OpenSSLES256.verifyChainAndSignature(
                leaf: fixture.leafDER, intermediate: fixture.intermediateDER, root: fixture.root,
                signature: fixture.derSignature, over: fixture.signingInput)
        else {
            throw BenchmarkError("OpenSSL rejects the JWS chain or signature")
        }
        let count = options.quick ? 5 : 500
        let jws = fixture.jws
        let verifyOptions = fixture.options
        let roots = [X509Certificate.openStoreKitJWSTestRoot]
        let comparison = PairedComparison(
            name: "jws.verify.cold",
            unit: "JWS/s",
            about: "a new JWSVerifier per JWS against OpenSSL chain verification + ES256 verification",
            target: 0.8,
            figure: Workload("JWSVerifier, a new one for each JWS", items: count) {
                {
                    successes(count) {
                        guard let verifier = try? JWSVerifier(trustedRoots: roots),
                            let verified = try? verifier.verify(jws, options: verifyOptions)
                        else { return false }
                        blackHole(verified)
                        return true
                    }
                }
            },
            baseline: Workload(
                "new X509_STORE, d2i_X509 ×2, strict X509_verify_cert, EVP_DigestVerify", role: .baseline,
                items: count
            ) {
                {
                    successes(count) {
                        OpenSSLES256.verifyChainAndSignature(
                            leaf: fixture.leafDER, intermediate: fixture.intermediateDER, root: fixture.root,
                            signature: fixture.derSignature, over: fixture.signingInput)
                    }
                }
            }
        )
        var report = try comparison.run(options)
        report.notes.append("JWS \(fixture.jws.utf8.count) bytes; x5c leaf, intermediate, root (root = trusted root)")
        return report
    }
}

extension Optional {
    /// The value, or a benchmark error saying what was missing.
    fileprivate func unwrap(_ what: String) throws -> Wrapped {
        guard let self else { throw BenchmarkError(what) }
        return self
    }
}
