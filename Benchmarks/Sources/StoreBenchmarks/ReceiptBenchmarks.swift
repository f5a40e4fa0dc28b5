import Foundation
import ReceiptKit

extension BenchmarkSuite {
    /// `receipt.verify.cold`, `receipt.verify.warm`, `receipt.parse` and `receipt.issue`: ReceiptKit beside OpenSSL
    /// doing the same job on the same bytes.
    mutating func addReceiptBenchmarks() {
        let options = self.options
        add(
            Benchmark(
                name: "receipt.verify.cold",
                unit: "receipts/s",
                about: """
                    A new ReceiptVerifier (nothing cached) verifies a 10-purchase receipt of the simulated store \
                    against the test root. Baseline: OpenSSL's own PKCS#7 verification of the same bytes, \
                    d2i_PKCS7 + PKCS7_verify with a new X509_STORE holding the same root.
                    """,
                target: 0.8,
                body: .custom { _ in try ReceiptBenchmarks.verifyCold(options) }
            )
        )
        add(
            Benchmark(
                name: "receipt.verify.warm",
                unit: "receipts/s",
                about: """
                    The same verifier again and again (the signer's chain cached): a walk over the PKCS#7, one \
                    SHA-256 digest, one RSA verification, and the payload parsed. Baseline: the floor of a bare \
                    EVP_DigestVerify (SHA-256/RSA) over the same payload, key reused.
                    """,
                target: 0.5,
                body: .custom { _ in try ReceiptBenchmarks.verifyWarm(options) }
            )
        )
        add(
            Benchmark(
                name: "receipt.parse",
                unit: "receipts/s",
                about: """
                    AppReceipt(derEncoded:) on the payload of a 10-purchase receipt (target: at least 100,000 \
                    receipts/s) and of Apple's 187-purchase receipt, and that receipt verified against Apple's root \
                    at its creation date. Baseline: a DER walk over the same payload that visits every attribute \
                    and value header and decodes nothing.
                    """,
                target: nil,
                body: .custom { _ in try ReceiptBenchmarks.parse(options) }
            )
        )
        add(
            Benchmark(
                name: "receipt.issue",
                unit: "receipts/s",
                about: """
                    ReceiptSigner.sign of a 10-purchase receipt (DER encoding, SHA-256/RSA-2048 signature, PKCS#7 \
                    with leaf, intermediate and root). Baseline: OpenSSL's PKCS7_sign (PKCS7_BINARY | \
                    PKCS7_NOATTR) of the same payload with the same key and certificates, then i2d_PKCS7.
                    """,
                target: 0.8,
                body: .custom { _ in try ReceiptBenchmarks.issue(options) }
            )
        )
    }
}

/// The bodies of the receipt benchmarks.
enum ReceiptBenchmarks {
    /// The absolute target of `receipt.parse` for a 10-purchase payload, in receipts per second.
    static let parseTarget = 100_000.0

    static func verifyCold(_ options: RunOptions) throws -> BenchmarkReport {
        let fixtures = try ReceiptFixtures()
        let receipt = fixtures.receipt
        let openSSL = try OpenSSLPKCS7Verifier(root: fixtures.root)
        guard openSSL.verifyWithNewStore(receipt), openSSL.verifyWithSharedStore(receipt) else {
            throw BenchmarkError("OpenSSL's PKCS7_verify rejects the simulated store's receipt")
        }
        let count = options.quick ? 5 : 500
        let roots = [X509Certificate.openStoreKitTestRoot]
        let comparison = PairedComparison(
            name: "receipt.verify.cold",
            unit: "receipts/s",
            about: "a new ReceiptVerifier per receipt against d2i_PKCS7 + PKCS7_verify with a new X509_STORE",
            target: 0.8,
            figure: Workload("ReceiptVerifier, a new one for each receipt", items: count) {
                {
                    var verified = 0
                    for _ in 0..<count {
                        guard let verifier = try? ReceiptVerifier(trustedRoots: roots),
                            let result = try? verifier.verify(receipt)
                        else { continue }
                        blackHole(result)
                        verified += 1
                    }
                    return verified
                }
            },
            baseline: Workload("d2i_PKCS7 + PKCS7_verify, new X509_STORE with the root", role: .baseline, items: count)
            {
                { successes(count) { openSSL.verifyWithNewStore(receipt) } }
            },
            rows: [
                .baseline(
                    Workload("d2i_PKCS7 + PKCS7_verify, X509_STORE made once", role: .baseline, items: count) {
                        { successes(count) { openSSL.verifyWithSharedStore(receipt) } }
                    })
            ]
        )
        var report = try comparison.run(options)
        report.notes.append(
            "receipt: \(receipt.count) bytes, \(ReceiptFixtures.purchases) purchases, certificates leaf, intermediate, "
                + "root")
        return report
    }

    static func verifyWarm(_ options: RunOptions) throws -> BenchmarkReport {
        let fixtures = try ReceiptFixtures()
        let receipt = fixtures.receipt
        let payload = fixtures.signedData.payload
        let signature = fixtures.signedData.signature
        let floor = try OpenSSLSignatureVerifier(certificate: fixtures.leaf, digestName: "SHA256")
        guard floor.verify(signature, over: payload) else {
            throw BenchmarkError("EVP_DigestVerify rejects the simulated store's receipt signature")
        }
        let count = options.quick ? 10 : 10_000
        let comparison = PairedComparison(
            name: "receipt.verify.warm",
            unit: "receipts/s",
            about: "one ReceiptVerifier, its chain cached, against a bare EVP_DigestVerify over the payload",
            target: 0.5,
            figure: Workload("ReceiptVerifier, signer's chain cached", items: count) {
                let verifier: ReceiptVerifier
                do {
                    verifier = try ReceiptVerifier(trustedRoots: [X509Certificate.openStoreKitTestRoot])
                    _ = try verifier.verify(receipt)
                } catch {
                    return { 0 }
                }
                return {
                    var verified = 0
                    for _ in 0..<count {
                        guard let result = try? verifier.verify(receipt) else { continue }
                        blackHole(result)
                        verified += 1
                    }
                    return verified
                }
            },
            baseline: Workload(
                "EVP_DigestVerify, SHA-256/RSA over the payload, key reused", role: .baseline, items: count
            ) {
                { successes(count) { floor.verify(signature, over: payload) } }
            },
            rows: [
                .baseline(
                    Workload(
                        "EVP_DigestVerify + AppReceipt(derEncoded:) of the payload", role: .baseline, items: count
                    ) {
                        {
                            var verified = 0
                            for _ in 0..<count {
                                guard floor.verify(signature, over: payload),
                                    let parsed = try? AppReceipt(derEncoded: payload)
                                else { continue }
                                blackHole(parsed)
                                verified += 1
                            }
                            return verified
                        }
                    })
            ]
        )
        var report = try comparison.run(options)
        report.notes.append("receipt: \(receipt.count) bytes; payload \(payload.count) bytes")
        return report
    }

    static func parse(_ options: RunOptions) throws -> BenchmarkReport {
        let fixtures = try ReceiptFixtures()
        let payload = fixtures.signedData.payload
        let walk = DERWalkBaseline(payload: payload)
        guard let walked = walk.walk(), walked.attributes > ReceiptFixtures.purchases else {
            throw BenchmarkError("the DER walk does not read the simulated store's payload")
        }
        let count = options.quick ? 100 : 50_000
        var rows: [PairedComparison.Row] = []
        var notes = ["10-purchase payload: \(payload.count) bytes, \(walked.attributes) attributes"]
        if let legacy = try LegacyReceiptFixture.load() {
            rows = try legacyRows(legacy, options)
            notes.append(
                "187-purchase receipt: \(legacy.receipt.count) bytes, payload \(legacy.signedData.payload.count) bytes")
        } else if let reason = LegacyReceiptFixture.missingReason {
            log("  receipt.parse: \(reason)")
            notes.append(reason)
        }
        let comparison = PairedComparison(
            name: "receipt.parse",
            unit: "receipts/s",
            about: "AppReceipt(derEncoded:) against a DER walk of the same payload",
            target: nil,
            figure: Workload("AppReceipt(derEncoded:), 10 purchases", items: count) {
                {
                    var parsed = 0
                    for _ in 0..<count {
                        guard let receipt = try? AppReceipt(derEncoded: payload),
                            receipt.inAppPurchases.count == ReceiptFixtures.purchases
                        else { continue }
                        blackHole(receipt)
                        parsed += 1
                    }
                    return parsed
                }
            },
            baseline: Workload("DER walk of the same payload, nothing decoded", role: .baseline, items: count) {
                { successes(count) { walk.walk() != nil } }
            },
            rows: rows
        )
        var report = try comparison.run(options)
        let met = report.median >= parseTarget
        report.notes += notes
        report.notes.append(
            "target: at least \(Format.number(parseTarget)) receipts/s for 10 purchases (absolute): "
                + (met ? "met" : "missed"))
        report.figures.insert(
            PairedComparison.extra(
                "10 purchases: in-app purchases parsed per second", unit: "purchases/s",
                Summary([report.median * Double(ReceiptFixtures.purchases)])),
            at: 0)
        return report
    }

    /// The 187-purchase rows of `receipt.parse`: parsing beside a DER walk, a cold verification beside OpenSSL's, a
    /// warm one beside the bare signature check.
    private static func legacyRows(
        _ legacy: LegacyReceiptFixture, _ options: RunOptions
    ) throws -> [PairedComparison.Row] {
        let receipt = legacy.receipt
        let payload = legacy.signedData.payload
        let signature = legacy.signedData.signature
        let walk = DERWalkBaseline(payload: payload)
        guard walk.walk() != nil else { throw BenchmarkError("the DER walk does not read the 187-purchase payload") }
        let openSSL = try OpenSSLPKCS7Verifier(root: legacy.appleRootForOpenSSL, at: legacy.creationDate)
        guard openSSL.verifyWithNewStore(receipt) else {
            throw BenchmarkError("OpenSSL's PKCS7_verify rejects the 187-purchase receipt at its creation date")
        }
        let floor = try OpenSSLSignatureVerifier(certificate: legacy.signerForOpenSSL, digestName: "SHA1")
        guard floor.verify(signature, over: payload) else {
            throw BenchmarkError("EVP_DigestVerify rejects the 187-purchase receipt's SHA-1 signature")
        }
        let roots = [legacy.appleRoot]
        let parseCount = options.quick ? 10 : 2_000
        let verifyCount = options.quick ? 5 : 500
        return [
            .pair(
                Workload("187 purchases: AppReceipt(derEncoded:)", items: parseCount) {
                    {
                        var parsed = 0
                        for _ in 0..<parseCount {
                            guard let receipt = try? AppReceipt(derEncoded: payload),
                                receipt.inAppPurchases.count == LegacyReceiptFixture.purchases
                            else { continue }
                            blackHole(receipt)
                            parsed += 1
                        }
                        return parsed
                    }
                },
                against: Workload("187 purchases: DER walk of the same payload", role: .baseline, items: parseCount) {
                    { successes(parseCount) { walk.walk() != nil } }
                }
            ),
            .pair(
                Workload("187 purchases: parse + verify, a new ReceiptVerifier (Apple root)", items: verifyCount) {
                    {
                        var verified = 0
                        for _ in 0..<verifyCount {
                            guard let verifier = try? ReceiptVerifier(trustedRoots: roots),
                                let result = try? verifier.verify(receipt)
                            else { continue }
                            blackHole(result)
                            verified += 1
                        }
                        return verified
                    }
                },
                against: Workload(
                    "187 purchases: d2i_PKCS7 + PKCS7_verify, new X509_STORE (Apple root)", role: .baseline,
                    items: verifyCount
                ) {
                    { successes(verifyCount) { openSSL.verifyWithNewStore(receipt) } }
                }
            ),
            .pair(
                Workload("187 purchases: parse + verify, chain cached", items: parseCount) {
                    let verifier: ReceiptVerifier
                    do {
                        verifier = try ReceiptVerifier(trustedRoots: roots)
                        _ = try verifier.verify(receipt)
                    } catch {
                        return { 0 }
                    }
                    return {
                        var verified = 0
                        for _ in 0..<parseCount {
                            guard let result = try? verifier.verify(receipt) else { continue }
                            blackHole(result)
                            verified += 1
                        }
                        return verified
                    }
                },
                against: Workload(
                    "187 purchases: EVP_DigestVerify, SHA-1/RSA over the payload", role: .baseline, items: parseCount
                ) {
                    { successes(parseCount) { floor.verify(signature, over: payload) } }
                }
            ),
        ]
    }

    static func issue(_ options: RunOptions) throws -> BenchmarkReport {
        let fixtures = try ReceiptFixtures()
        let model = fixtures.model
        let payload = model.derEncoded()
        guard payload == fixtures.signedData.payload else {
            throw BenchmarkError("re-encoding the receipt does not give the payload the store signed")
        }
        let signer = ReceiptSigner()
        let openSSL = try OpenSSLPKCS7Signer(
            leaf: fixtures.leaf, key: try fixtures.leafKey(), extras: [fixtures.intermediate, fixtures.root])
        // The baseline must do the same job: its receipt verifies, with the same signature as ReceiptKit's.
        guard let signedByOpenSSL = openSSL.sign(payload) else {
            throw BenchmarkError("OpenSSL's PKCS7_sign fails on the payload")
        }
        do {
            let verifier = try ReceiptVerifier(trustedRoots: [X509Certificate.openStoreKitTestRoot])
            _ = try verifier.verify(signedByOpenSSL)
        } catch {
            throw BenchmarkError("ReceiptVerifier rejects the receipt PKCS7_sign made: \(error)")
        }
        guard try OpenSSLSignedData(receipt: signedByOpenSSL).signature == fixtures.signedData.signature else {
            throw BenchmarkError("PKCS7_sign's signature differs from ReceiptSigner's: not the same key or digest")
        }
        let count = options.quick ? 3 : 200
        let comparison = PairedComparison(
            name: "receipt.issue",
            unit: "receipts/s",
            about: "ReceiptSigner.sign against PKCS7_sign + i2d_PKCS7 of the same payload, same key and certificates",
            target: 0.8,
            figure: Workload("ReceiptSigner.sign(AppReceipt), encoding included", items: count) {
                {
                    var signed = 0
                    for _ in 0..<count {
                        guard let bytes = try? signer.sign(model) else { continue }
                        blackHole(bytes)
                        signed += 1
                    }
                    return signed
                }
            },
            baseline: Workload(
                "PKCS7_sign (BINARY | NOATTR) + i2d_PKCS7 of the same payload", role: .baseline, items: count
            ) {
                {
                    var signed = 0
                    for _ in 0..<count {
                        guard let bytes = openSSL.sign(payload) else { continue }
                        blackHole(bytes)
                        signed += 1
                    }
                    return signed
                }
            },
            rows: [
                .variant(
                    Workload("ReceiptSigner.sign(payload:), payload encoded once", items: count) {
                        {
                            var signed = 0
                            for _ in 0..<count {
                                guard let bytes = try? signer.sign(payload: payload) else { continue }
                                blackHole(bytes)
                                signed += 1
                            }
                            return signed
                        }
                    })
            ]
        )
        var report = try comparison.run(options)
        report.notes.append(
            "payload: \(payload.count) bytes; ReceiptKit's receipt \(fixtures.receipt.count) bytes, OpenSSL's "
                + "\(signedByOpenSSL.count) bytes")
        return report
    }
}
