#if Server
    import Foundation
    import ReceiptKit
    import StoreServer
    import StoreSimulator
    import Testing

    @Suite("A served store checks signed offers with the server's In-App Purchase keys")
    struct OfferKeyRegistrationTests {
        @Test("An API key's public half becomes the store's subscription-offer key of the same id")
        func registered() throws {
            let fixture = try ServerFixture()
            defer { fixture.server.stop() }
            let pem = try #require(fixture.store.settings.subscriptionOfferKeys[ServerFixture.keyID])
            let message = Array("header.claims".utf8)
            let signature = try fixture.key.sign(message)
            #expect(try OfferVerificationKey(pemEncoded: pem).isValidSignature(signature, for: message))
        }

        @Test("A subscription-offer key the store already has for that id is kept")
        func kept() throws {
            let store = SimulatedStore(lane: .manual)
            store.updateSettings { $0.subscriptionOfferKeys[ServerFixture.keyID] = "kept" }
            let fixture = try ServerFixture(store: store)
            defer { fixture.server.stop() }
            #expect(store.settings.subscriptionOfferKeys[ServerFixture.keyID] == "kept")
        }
    }
#endif
