internal import CBenchmarkOpenSSL

/// The payload and the signature of a PKCS#7 SignedData receipt, taken out with OpenSSL once, at set-up, for the
/// baselines that work on them directly.
struct OpenSSLSignedData {
    /// The signed content: the receipt payload (DER).
    var payload: [UInt8]
    /// The first signer's signature.
    var signature: [UInt8]

    /// Decodes `receipt` (PKCS#7 DER or BER).
    init(receipt: [UInt8]) throws {
        let decoded: (payload: [UInt8], signature: [UInt8])? = receipt.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let pkcs7 = d2i_PKCS7(nil, &cursor, buffer.count) else { return nil }
            defer { PKCS7_free(pkcs7) }
            guard OBJ_obj2nid(pkcs7.pointee.type) == NID_pkcs7_signed, let signed = pkcs7.pointee.d.sign,
                let contents = signed.pointee.contents, OBJ_obj2nid(contents.pointee.type) == NID_pkcs7_data,
                let payload = contents.pointee.d.data,
                let signers = PKCS7_get_signer_info(pkcs7), CBenchmarkOpenSSL_sk_PKCS7_SIGNER_INFO_num(signers) > 0,
                let signer = CBenchmarkOpenSSL_sk_PKCS7_SIGNER_INFO_value(signers, 0),
                let signature = signer.pointee.enc_digest
            else { return nil }
            return (Self.bytes(payload), Self.bytes(signature))
        }
        guard let decoded else {
            ERR_clear_error()
            throw BenchmarkError("OpenSSL cannot read the receipt (\(receipt.count) bytes) as PKCS#7 SignedData")
        }
        payload = decoded.payload
        signature = decoded.signature
    }

    private static func bytes(_ string: UnsafeMutablePointer<ASN1_OCTET_STRING>) -> [UInt8] {
        let count = Int(ASN1_STRING_length(string))
        guard count > 0, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }
}
