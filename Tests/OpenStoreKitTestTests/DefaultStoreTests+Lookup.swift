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

extension DefaultStoreTests {
    @Test("A configuration file among the test target's resources is found by its name, as in an iOS test bundle")
    func configurationFileInTheTestTargetsResources() throws {
        let named = try SKTestSession(configurationFileNamed: "Products")
        #expect(named.store === SimulatedStore.default)
        #expect(named.store.catalog.product("com.example.bundled.gems") != nil)
        #expect(named.storefront == "GBR")
        let withExtension = try SKTestSession(configurationFileNamed: "Products.storekit")
        #expect(withExtension.store.catalog.product("com.example.bundled.gems") != nil)
    }

    @Test("A configuration file found nowhere is fileNotFound, naming the resource bundles it looked in")
    func configurationFileNotFoundNamesTheBundles() {
        do {
            _ = try SKTestSession(configurationFileNamed: "NoSuchConfiguration-\(UUID().uuidString)")
            Issue.record("expected fileNotFound")
        } catch {
            #expect(error.code == .fileNotFound)
            #expect(error.message.contains("OpenStoreKit_OpenStoreKitTestTests.resources"))
            #expect(error.message.contains(FileManager.default.currentDirectoryPath))
        }
    }
}
