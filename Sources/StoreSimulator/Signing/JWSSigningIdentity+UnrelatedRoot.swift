import ReceiptKit

extension JWSSigningIdentity {
    /// A signing identity under an unrelated root: the certificate `Receipts/jws/other-root.pem` (a test root that
    /// trusts nobody) in all three `x5c` places, with its key. JWS it signs fail verification against the JWS test
    /// root with ``ReceiptKit/ReceiptError/Code/chainNotTrusted``. Copied from `Receipts/jws/other-root.*`; a test
    /// key only.
    static let openStoreKitUnrelatedRoot: JWSSigningIdentity = {
        do {
            let certificate = try X509Certificate(pemEncoded: unrelatedRootPEM)
            return try JWSSigningIdentity(
                certificates: [certificate, certificate, certificate], privateKeyPEM: unrelatedRootKeyPEM)
        } catch {
            fatalError("the embedded unrelated-root identity is unreadable: \(error)")
        }
    }()

    private static let unrelatedRootPEM =
        """
        -----BEGIN CERTIFICATE-----
        MIICJjCCAcygAwIBAgICQAIwCgYIKoZIzj0EAwIweTELMAkGA1UEBhMCVVMxGjAY
        BgNVBAoMEU9wZW5TdG9yZUtpdCBUZXN0MRwwGgYDVQQLDBNVbnJlbGF0ZWQgQXV0
        aG9yaXR5MTAwLgYDVQQDDCdPcGVuU3RvcmVLaXQgVW5yZWxhdGVkIFRlc3QgRUND
        IFJvb3QgQ0EwIBcNMjAwMTAxMDAwMDAwWhgPMjA2MDAxMDEwMDAwMDBaMHkxCzAJ
        BgNVBAYTAlVTMRowGAYDVQQKDBFPcGVuU3RvcmVLaXQgVGVzdDEcMBoGA1UECwwT
        VW5yZWxhdGVkIEF1dGhvcml0eTEwMC4GA1UEAwwnT3BlblN0b3JlS2l0IFVucmVs
        YXRlZCBUZXN0IEVDQyBSb290IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
        VNozCeQF4IRyWY/07GGfEgu0gDG5NQ7uHDBpnCqm7CFaW+am995coCUuaUX3YcJa
        BJwsHrovGTr5CeHx30u/YKNCMEAwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8E
        BAMCAQYwHQYDVR0OBBYEFEZo/IEIi1KazM9YtSxRFW/R7L/PMAoGCCqGSM49BAMC
        A0gAMEUCIGonNNDTyVOV0jjLg8rezgzjngzzoY/d31w2C3OJY61wAiEAgYsP7c4m
        EWYAWXvh+kcPhp6lb+moslqyZUzgv4dX/6s=
        -----END CERTIFICATE-----
        """

    private static let unrelatedRootKeyPEM =
        """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPshVHQNjvOipscSk
        WlgPx4gv0F3Yn6zAZ+fcCOxiu9WhRANCAARU2jMJ5AXghHJZj/TsYZ8SC7SAMbk1
        Du4cMGmcKqbsIVpb5qb33lygJS5pRfdhwloEnCweui8ZOvkJ4fHfS79g
        -----END PRIVATE KEY-----
        """
}
