internal import COpenSSL
public import Foundation

/// An X.509 certificate, decoded by OpenSSL. Immutable; safe to share between threads.
///
/// Load trusted roots with ``init(derEncoded:)``, ``init(pemEncoded:)`` or ``ReceiptFile/readCertificate(atPath:)``.
/// ``openStoreKitTestRoot`` is the root of ReceiptKit's test PKI, which signs the receipts the simulated store issues.
public final class X509Certificate: @unchecked Sendable, Hashable, CustomStringConvertible {
    // @unchecked: this object is the sole owner of `raw` and never mutates it after init. OpenSSL allows concurrent
    // reads and chain verification of a shared X509 (its cached extension data is computed under a lock).
    let raw: OpaquePointer  // X509 *

    /// The certificate's DER encoding, exactly as it was read.
    public let derEncoded: [UInt8]
    /// The start of the validity period.
    public let notBefore: Date
    /// The end of the validity period.
    public let notAfter: Date

    /// Decodes a DER certificate.
    ///
    /// - Parameter der: The DER bytes of one certificate, with nothing after it.
    /// - Throws: ``ReceiptError/Code/certificateUnreadable`` if OpenSSL cannot decode it.
    public convenience init(derEncoded der: [UInt8]) throws(ReceiptError) {
        try self.init(der: der, failure: .certificateUnreadable)
    }

    /// Decodes DER bytes, failing with `failure` (``ReceiptError/Code/certificateMalformed`` for embedded ones).
    init(der: [UInt8], failure: ReceiptError.Code, offset: Int? = nil) throws(ReceiptError) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base  // d2i_* advances the cursor
            guard let x509 = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard cursor == base + buffer.count else {
                X509_free(x509)
                return nil
            }
            return x509
        }
        guard let parsed else {
            let queue = OpenSSLErrorQueue.drain()
            throw ReceiptError(failure, "cannot decode an X.509 certificate: \(queue)", offset: offset)
        }
        self.raw = parsed
        self.derEncoded = der
        self.notBefore = Self.date(X509_get0_notBefore(parsed))
        self.notAfter = Self.date(X509_get0_notAfter(parsed))
    }

    /// Takes ownership of an X509 that OpenSSL returned.
    private init(owning x509: OpaquePointer) throws(ReceiptError) {
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_X509(x509, &out)
        guard count > 0, let out else {
            X509_free(x509)
            throw OpenSSLErrorQueue.failure("i2d_X509")
        }
        defer { COpenSSL_free(out) }  // OPENSSL_free is a macro
        self.raw = x509
        self.derEncoded = Array(UnsafeBufferPointer(start: out, count: Int(count)))
        self.notBefore = Self.date(X509_get0_notBefore(x509))
        self.notAfter = Self.date(X509_get0_notAfter(x509))
    }

    /// Decodes the first certificate of a PEM text (`-----BEGIN CERTIFICATE-----`).
    ///
    /// - Parameter pem: The PEM text.
    /// - Throws: ``ReceiptError/Code/certificateUnreadable`` if there is no readable certificate.
    public convenience init(pemEncoded pem: String) throws(ReceiptError) {
        let all = try Self.certificates(pemEncoded: pem)
        try self.init(derEncoded: all[0].derEncoded)
    }

    /// Decodes every certificate of a PEM text, in order.
    ///
    /// - Parameter pem: The PEM text, for example a chain file.
    /// - Returns: At least one certificate.
    /// - Throws: ``ReceiptError/Code/certificateUnreadable`` if there is no readable certificate.
    public static func certificates(pemEncoded pem: String) throws(ReceiptError) -> [X509Certificate] {
        var bytes = Array(pem.utf8)
        if bytes.isEmpty || bytes.count > Int(Int32.max) { bytes = [0] }
        var x509s: [OpaquePointer] = []
        bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return }  // borrows `raw`
            defer { BIO_free(bio) }
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                x509s.append(x509)
            }
        }
        _ = OpenSSLErrorQueue.drain()  // the last read always fails with "no start line"
        var certificates: [X509Certificate] = []
        var failure: ReceiptError?
        for x509 in x509s {
            if failure != nil {
                X509_free(x509)
                continue
            }
            do {
                certificates.append(try X509Certificate(owning: x509))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard !certificates.isEmpty else {
            throw ReceiptError(.certificateUnreadable, "no PEM certificate (-----BEGIN CERTIFICATE-----) found")
        }
        return certificates
    }

    deinit {
        X509_free(raw)
    }

    /// The subject name, in OpenSSL's one-line form (`/C=US/O=Apple Inc./CN=Apple Root CA`).
    public var subject: String {
        Self.oneLine(X509_get_subject_name(raw))
    }

    /// The issuer name, in OpenSSL's one-line form.
    public var issuer: String {
        Self.oneLine(X509_get_issuer_name(raw))
    }

    /// The subject, issuer and validity period.
    public var description: String {
        "X509Certificate(subject: \(subject), issuer: \(issuer), valid \(notBefore) ..< \(notAfter))"
    }

    /// Whether the certificate is self-issued and its signature verifies with its own key.
    var isSelfSigned: Bool {
        let result = X509_self_signed(raw, 1) == 1
        _ = OpenSSLErrorQueue.drain()
        return result
    }

    /// Whether the certificate carries an extension with this OID (in dotted form).
    func hasExtension(_ dottedOID: String) -> Bool {
        guard let object = OBJ_txt2obj(dottedOID, 1) else {
            _ = OpenSSLErrorQueue.drain()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(raw, object, -1) >= 0
    }

    /// Whether the certificate's public key matches a private key.
    func matches(_ key: PrivateKey) -> Bool {
        let result = key.withUnsafeKey { X509_check_private_key(raw, $0) } == 1
        _ = OpenSSLErrorQueue.drain()
        return result
    }

    /// Checks a signature made by this certificate's key over `data`.
    func verifySignature(
        _ signature: UnsafeRawBufferPointer, over data: UnsafeRawBufferPointer, digest: ReceiptDigestAlgorithm
    ) -> Bool {
        guard let key = X509_get0_pubkey(raw), let context = EVP_MD_CTX_new() else {
            _ = OpenSSLErrorQueue.drain()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, digest.evpMD, nil, key) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            return false
        }
        let result = EVP_DigestVerify(
            context, signature.baseAddress?.assumingMemoryBound(to: UInt8.self), signature.count,
            data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count)
        if result != 1 { _ = OpenSSLErrorQueue.drain() }
        return result == 1
    }

    /// Calls `body` with the X509 pointer, which must not escape.
    func withUnsafeX509<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try body(raw)
    }

    /// Certificates are equal when their DER encodings are.
    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool {
        lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derEncoded)
    }

    private static func oneLine(_ name: OpaquePointer?) -> String {
        guard let name, let text = X509_NAME_oneline(name, nil, 0) else { return "" }
        defer { COpenSSL_free(text) }
        return String(cString: text)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var fields = tm()
        guard let time, ASN1_TIME_to_tm(time, &fields) == 1 else { return Date(timeIntervalSince1970: 0) }
        let days = RFC3339.daysFromCivil(
            year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday))
        let seconds = days * 86_400 + Int64(fields.tm_hour * 3600 + fields.tm_min * 60 + fields.tm_sec)
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
