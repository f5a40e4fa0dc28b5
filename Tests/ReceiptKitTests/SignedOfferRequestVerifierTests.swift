import Foundation
import ReceiptKit
import Testing

@Suite("Signed offer requests (promotional offers and introductory offer eligibility) are verified as Apple does")
struct SignedOfferRequestVerifierTests {
    static let bundle = "com.example.app"
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let key: ES256Key = {
        do { return try ES256Key.generate() } catch { preconditionFailure("OpenSSL cannot make a P-256 key: \(error)") }
    }()

    static func verifier(key: ES256Key = key, keyID: String = "KEY1") throws -> SignedOfferRequestVerifier {
        SignedOfferRequestVerifier(
            keys: [keyID: try OfferVerificationKey(pemEncoded: try key.publicKeyPEM())], bundleID: bundle)
    }

    static func request(
        _ audience: SignedOfferRequest.Audience = .promotionalOffer, keyID: String = "KEY1", bundleID: String = bundle,
        issuedAt: Date = now, offer: String? = "offer1", transactionID: String? = nil, allow: Bool? = nil
    ) -> SignedOfferRequest {
        SignedOfferRequest(
            audience: audience, keyID: keyID, issuerID: "issuer", bundleID: bundleID, productID: "com.example.monthly",
            nonce: "5f6e3a41-d3a5-4b0e-9a60-5b6b1b4a5e11", issuedAt: issuedAt, offerIdentifier: offer,
            transactionID: transactionID, allowIntroductoryOffer: allow)
    }

    /// A JWS with the given header and claims JSON, signed with `key`.
    static func jws(header: String, claims: String, key: ES256Key = key) throws -> String {
        let input =
            Data(header.utf8).base64URL + "." + Data(claims.utf8).base64URL
        return input + "." + Data(try key.sign(Array(input.utf8))).base64URL
    }

    @Test("A promotional offer signed with the key verifies and gives its claims")
    func promotionalOffer() throws {
        let signed = try Self.request(transactionID: "2000000000000001").signed(with: Self.key)
        let request = try Self.verifier().verify(signed, audience: .promotionalOffer, now: Self.now)
        #expect(request == Self.request(transactionID: "2000000000000001"))
        #expect(request.keyID == "KEY1")
        #expect(request.offerIdentifier == "offer1")
        #expect(request.issuedAt == Self.now)
    }

    @Test("Introductory offer eligibility verifies with allowIntroductoryOffer and transactionId")
    func eligibility() throws {
        let signed = try Self.request(.introductoryOfferEligibility, offer: nil, transactionID: "7", allow: false)
            .signed(with: Self.key)
        let request = try Self.verifier().verify(signed, audience: .introductoryOfferEligibility, now: Self.now)
        #expect(request.allowIntroductoryOffer == false)
        #expect(request.transactionID == "7")
        #expect(request.offerIdentifier == nil)
    }

    @Test("aud given as a one-element array, as a JWT may, is accepted; iat may be fractional")
    func audienceArray() throws {
        let claims =
            #"{"nonce":"n","iss":"i","bid":"com.example.app","aud":["promotional-offer"],"iat":1780000000.5,"#
            + #""productId":"p","offerIdentifier":"o"}"#
        let signed = try Self.jws(header: #"{"alg":"ES256","kid":"KEY1","typ":"JWT"}"#, claims: claims)
        let request = try Self.verifier().verify(signed, audience: .promotionalOffer, now: Self.now)
        #expect(request.offerIdentifier == "o")
        #expect(request.issuedAtSeconds == 1_780_000_000)
    }

    @Test(
        "Each bad part fails with its code",
        arguments: [
            ("another key", ReceiptError.Code.signatureInvalid), ("unknown kid", .signerNotFound),
            ("bundle", .bundleIdentifierMismatch), ("old", .requestExpired), ("ahead", .requestExpired),
            ("audience", .invalidJWS), ("no offer", .missingClaim), ("no transaction", .missingClaim),
            ("no allow", .missingClaim),
        ])
    func refused(change: String, code: ReceiptError.Code) throws {
        let other = try ES256Key.generate()
        var audience = SignedOfferRequest.Audience.promotionalOffer
        var request = Self.request()
        var key = Self.key
        switch change {
        case "another key": key = other
        case "unknown kid": request.keyID = "KEY2"
        case "bundle": request.bundleID = "com.example.other"
        case "old": request = Self.request(issuedAt: Self.now - 86_401)
        case "ahead": request = Self.request(issuedAt: Self.now + 301)
        case "audience": audience = .introductoryOfferEligibility
        case "no offer": request.offerIdentifier = nil
        case "no transaction":
            audience = .introductoryOfferEligibility
            request = Self.request(.introductoryOfferEligibility, offer: nil, allow: true)
        default:
            audience = .introductoryOfferEligibility
            request = Self.request(.introductoryOfferEligibility, offer: nil, transactionID: "7")
        }
        let signed = try request.signed(with: key)
        #expect(throws: ReceiptError(code)) {
            _ = try Self.verifier().verify(signed, audience: audience, now: Self.now)
        }
    }

    @Test("A day-old request at the limit still verifies")
    func dayOld() throws {
        let signed = try Self.request(issuedAt: Self.now - 86_400).signed(with: Self.key)
        #expect(throws: Never.self) {
            _ = try Self.verifier().verify(signed, audience: .promotionalOffer, now: Self.now)
        }
    }

    @Test("Another alg, no kid and claims of the wrong type are refused")
    func header() throws {
        let good = #"{"nonce":"n","iss":"i","bid":"com.example.app","aud":"promotional-offer","iat":1780000000,"#
        #expect(throws: ReceiptError(.unsupportedAlgorithm)) {
            _ = try Self.verifier().verify(
                try Self.jws(
                    header: #"{"alg":"HS256","kid":"KEY1"}"#, claims: good + #""productId":"p","offerIdentifier":"o"}"#),
                audience: .promotionalOffer, now: Self.now)
        }
        #expect(throws: ReceiptError(.signerNotFound)) {
            _ = try Self.verifier().verify(
                try Self.jws(header: #"{"alg":"ES256"}"#, claims: good + #""productId":"p","offerIdentifier":"o"}"#),
                audience: .promotionalOffer, now: Self.now)
        }
        #expect(throws: ReceiptError(.invalidJWS)) {
            _ = try Self.verifier().verify(
                try Self.jws(
                    header: #"{"alg":"ES256","kid":"KEY1"}"#, claims: good + #""productId":7,"offerIdentifier":"o"}"#),
                audience: .promotionalOffer, now: Self.now)
        }
        #expect(throws: ReceiptError(.invalidJWS)) {
            _ = try Self.verifier().verify(
                try Self.jws(
                    header: #"{"alg":"ES256","kid":"KEY1"}"#,
                    claims: good + #""productId":"p","offerIdentifier":"o","iat":1}"#),
                audience: .promotionalOffer, now: Self.now)
        }
    }

    @Test("Garbage and huge input are refused as invalidJWS", arguments: ["", "abc", "a.b.c", "..", "huge"])
    func garbage(text: String) throws {
        let input = text == "huge" ? String(repeating: "A", count: 1 << 20) + ".e30.e30" : text
        #expect(throws: ReceiptError(.invalidJWS)) {
            _ = try Self.verifier().verify(input, audience: .promotionalOffer, now: Self.now)
        }
    }
}

extension Data {
    fileprivate var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
