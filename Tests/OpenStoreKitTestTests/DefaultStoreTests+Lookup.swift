import Foundation
import OpenStoreKit
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

// Beyond Apple's API: how sessions find configuration files, checked on the default store, in its serialized suite.
extension DefaultStoreTests {
    @Test("A session made from a configuration file name controls the default store")
    func configurationFileNamed() throws {
        let path = defaultConfiguration.deletingPathExtension().path
        let named = try SKTestSession(configurationFileNamed: path)
        #expect(named.store === SimulatedStore.default)
        #expect(named.store.catalog.product("com.example.no-ads") != nil)
        named.storefront = "CAN"
        #expect(SKPaymentQueue.default().storefront?.countryCode == "CAN")
        #expect(session.storefront == "CAN", "every session controls the same environment")
    }

    @Test("The configuration path variable names folders to look in, before the current directory")
    func configurationPathVariable() throws {
        let folder = RepositoryFiles.examples.path
        setenv(SKTestSession.configurationPathVariable, "/nonexistent:\(folder)", 1)
        defer { unsetenv(SKTestSession.configurationPathVariable) }
        let named = try SKTestSession(configurationFileNamed: "Default")
        #expect(named.store.catalog.product("com.example.season-pass") != nil)
        let withExtension = try SKTestSession(configurationFileNamed: "Default.storekit")
        #expect(withExtension.store.catalog.product("com.example.auto-renewable.yearly") != nil)
    }

    @Test("The configuration path variable finds the files Xcode wrote", .requiresSharedData)
    func configurationPathVariableSamples() throws {
        let folder = try samplesFolder().path
        setenv(SKTestSession.configurationPathVariable, "/nonexistent:\(folder)", 1)
        defer { unsetenv(SKTestSession.configurationPathVariable) }
        let named = try SKTestSession(configurationFileNamed: "revenuecat-UnitTestsConfiguration.v5")
        #expect(named.store.catalog.product("lifetime") != nil)
        let withExtension = try SKTestSession(configurationFileNamed: "manicmaniac-Default.v1_1.storekit")
        #expect(withExtension.store.catalog.product("com.example.auto-renewable") != nil)
    }
}
