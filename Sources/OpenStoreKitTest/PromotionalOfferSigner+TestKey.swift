// Made by Receipts/make-offer-key.sh: do not edit. A test key only.

extension PromotionalOfferSigner {
    /// The identifier of the test subscription-offer key.
    public static let testKeyID = "OPENSTOREKIT-TEST-OFFER-KEY"

    /// The test subscription-offer key's public half (PEM), what a store checks offers with.
    public static let testPublicKeyPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEJb37J5nnj9yZMEXYkwahQkV3wbUn
        rrbeRmcl5+MX6BcKKUE4522BurzcpE84VHc8roCpRxHeag9LR+/EH/QXsw==
        -----END PUBLIC KEY-----
        """

    /// The test subscription-offer key's private half (PKCS#8 PEM). A test key only.
    static let testPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQga9nrPEyFmYzPOnF2
        b1Cog/ONPn7VzNSRwJSYVzjcDf+hRANCAAQlvfsnmeeP3JkwRdiTBqFCRXfBtSeu
        tt5GZyXn4xfoFwopQTjnbYG6vNykTzhUdzyugKlHEd5qD0tH78Qf9Bez
        -----END PRIVATE KEY-----
        """
}
