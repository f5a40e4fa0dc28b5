internal import COpenSSL

/// One-shot digests through OpenSSL.
enum Digest {
    /// SHA-1 over the concatenation of `parts` (the receipt device hash).
    static func sha1(_ parts: [UInt8]...) -> [UInt8] {
        hash(.sha1) { update in
            for part in parts { part.withUnsafeBytes { update($0) } }
        }
    }

    /// The digest of one buffer.
    static func hash(_ algorithm: ReceiptDigestAlgorithm, _ data: UnsafeRawBufferPointer) -> [UInt8] {
        hash(algorithm) { update in update(data) }
    }

    /// A digest over whatever `feed` passes to its `update` function.
    static func hash(
        _ algorithm: ReceiptDigestAlgorithm, _ feed: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { return [] }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, algorithm.evpMD, nil) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            return []
        }
        feed { buffer in
            if buffer.count > 0 { EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) }
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &output, &length) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            return []
        }
        return Array(output.prefix(Int(length)))
    }
}
