internal import COpenSSL

/// Converts ECDSA P-256 signatures between JWS's raw form (R and S, 32 bytes each, RFC 7518 §3.4) and the DER
/// `ECDSA-Sig-Value` that OpenSSL signs and verifies, with OpenSSL's own encoder and decoder.
enum ECDSASignature {
    /// The size of R and of S for P-256.
    static let coordinateSize = 32

    /// The DER form of a raw 64-byte R‖S signature; nil if it is not 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * coordinateSize, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { buffer in
            (
                BN_bin2bn(buffer.baseAddress, Int32(coordinateSize), nil),
                BN_bin2bn(buffer.baseAddress! + coordinateSize, Int32(coordinateSize), nil)
            )
        }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            _ = OpenSSLErrorQueue.drain()
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {  // takes ownership of r and s on success
            BN_free(r)
            BN_free(s)
            _ = OpenSSLErrorQueue.drain()
            return nil
        }
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_ECDSA_SIG(signature, &out)
        guard count > 0, let out else {
            _ = OpenSSLErrorQueue.drain()
            return nil
        }
        defer { COpenSSL_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(count)))
    }

    /// The raw 64-byte R‖S form of a DER signature; nil if it is not a P-256 ECDSA signature.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else {
            _ = OpenSSLErrorQueue.drain()
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        var output = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let written = output.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, Int32(coordinateSize))
                + BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + coordinateSize, Int32(coordinateSize))
        }
        guard written == Int32(2 * coordinateSize) else {
            _ = OpenSSLErrorQueue.drain()
            return nil
        }
        return output
    }
}
