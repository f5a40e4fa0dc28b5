import OpenStoreKit2
import StoreModels
import StoreSimulator
import Testing

@Suite("Storefront: the current one and its changes", .timeLimit(.minutes(1)))
struct StorefrontTests {
    @Test("Storefront.current is the store's; Storefront.updates hears a change")
    func storefront() async throws {
        let store = SimulatedStore(lane: .manual)
        await StoreKitEnvironment.withStore(store) {
            #expect(await Storefront.current?.countryCode == "USA")
            var changes = Storefront.updates.makeAsyncIterator()
            store.updateSettings { $0.storefront = StoreModels.Storefront(countryCode: "GBR") }
            store.runUntilIdle()
            let changed = await changes.next()
            #expect(changed?.countryCode == "GBR")
            #expect(await Storefront.current?.countryCode == "GBR")
        }
    }
}
