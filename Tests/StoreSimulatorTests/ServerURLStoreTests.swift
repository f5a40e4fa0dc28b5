import Foundation
import Ledger
import TestSupport
import Testing

@testable import StoreSimulator

/// What a store says of a server database's URL: never its password, in the words Ledger uses for it.
@Suite("Server database URLs")
struct ServerURLStoreTests {
    static let urls = [
        "postgresql://user:hunter2@db.example:5432/store?sslmode=require",
        "postgres:///store?host=/tmp/sock&password=hunter2&user=u",
        "postgresql://u@db.example/store#part",
    ]

    #if !Postgres
        @Test(
            "Without the trait Postgres a URL is refused saying so, named as Ledger names it, without its password",
            arguments: urls)
        func refusedWithoutTheTrait(url: String) throws {
            let ledger = try #require(throws: LedgerError.self) { try LedgerDatabase(url: url) }
            #expect(ledger.path == LedgerDatabase.location(ofServerURL: url))
            do {
                _ = try SimulatedStore(database: url, lane: .manual)
                Issue.record("a store opened \(url) without the trait")
            } catch {
                #expect(error.code == .stateUnavailable)
                #expect(error.detail.contains("--traits Postgres"), "\(error.detail)")
                #expect(error.detail.contains(LedgerDatabase.location(ofServerURL: url)), "\(error.detail)")
                #expect(!error.detail.contains("hunter2"))
            }
        }
    #endif

    #if Postgres
        @Test("A URL with a password opens the store; databaseLocation and errors show it without", .requiresPostgres)
        func passwordNeverShown() throws {
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            let url = schema.url + "&password=hunter2"  // the test server trusts local connections: it is not asked
            let store = try SimulatedStore(database: url, lane: .manual)
            #expect(store.databaseLocation == store.ledger?.location)
            #expect(store.databaseLocation?.contains("hunter2") == false)
            #expect(store.statePath == nil)
            let error = try #require(throws: StoreSimulatorError.self) {
                try SimulatedStore(database: url, lane: .manual)
            }
            #expect(!error.detail.contains("hunter2"))
            try store.close()
        }
    #endif
}
