import Foundation

#if Server
    import StoreServer
    import StoreSimulator
#endif

extension BenchmarkSuite {
    /// `server.database`: purchases through the control API of a server whose store is durable, on PostgreSQL against
    /// SQLite. Needs the traits Server and Postgres, and a PostgreSQL database named by `OPENSTOREKIT_BENCH_POSTGRES`
    /// (a new schema is made in it for each store and dropped after); without them the benchmark is not registered.
    mutating func addServerDatabaseBenchmarks() {
        #if Server && Postgres
            guard let database = ServerDatabaseBench.serverURL else { return }
            let items = options.quick ? 20 : 1_000
            add(
                Benchmark(
                    name: "server.database",
                    unit: "requests/s",
                    about: """
                        Purchases through the control API (POST /openstorekit/v1/purchases: one consumable bought \
                        for one account, the store's change committed before the answer) over one keep-alive \
                        loopback connection, one request at a time, the store on a PostgreSQL server \
                        (SimulatedStore(database:), synchronous_commit on). Baseline: the same server with its store \
                        in an SQLite state file (synchronous FULL), made in the same run.
                        """,
                    target: nil,
                    body: .comparison(
                        figure: Workload("purchases, store on PostgreSQL", items: items) {
                            ServerDatabaseBench.purchases(items, database: .server(database))
                        },
                        baseline: Workload("purchases, store in an SQLite state file", role: .baseline, items: items) {
                            ServerDatabaseBench.purchases(items, database: .file)
                        },
                        others: [
                            Workload("purchases, store in memory", items: items) {
                                ServerDatabaseBench.purchases(items, database: .memory)
                            }
                        ])
                )
            )
        #endif
    }
}

#if Server && Postgres
    /// The workloads of `server.database`.
    enum ServerDatabaseBench {
        /// Where a workload's store keeps its state.
        enum Place {
            case memory
            case file
            case server(String)
        }

        /// The PostgreSQL database the benchmark may make schemas in, from `OPENSTOREKIT_BENCH_POSTGRES`.
        static var serverURL: String? {
            let url = ProcessInfo.processInfo.environment["OPENSTOREKIT_BENCH_POSTGRES"] ?? ""
            return url.isEmpty ? nil : url
        }

        /// A server over a new store in `place`, and a body that buys `items` consumables through its control API.
        static func purchases(_ items: Int, database place: Place) -> () -> Int {
            let store: SimulatedStore
            var cleanup: () -> Void = {}
            switch place {
            case .memory:
                store = SimulatedStore(lane: .manual)
            case .file:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "server-database-\(UUID().uuidString)")
                guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
                    let opened = try? SimulatedStore(
                        statePath: folder.appendingPathComponent("state.sqlite").path, lane: .manual)
                else { return { 0 } }
                store = opened
                cleanup = { try? FileManager.default.removeItem(at: folder) }
            case .server(let url):
                let schema = "bench_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
                guard psql(url, "CREATE SCHEMA \(schema)"),
                    let opened = try? SimulatedStore(database: inSchema(url, schema), lane: .manual)
                else { return { 0 } }
                store = opened
                cleanup = { _ = psql(url, "SET client_min_messages = warning; DROP SCHEMA \(schema) CASCADE") }
            }
            guard
                let server = try? StoreServer(
                    store: store, configuration: StoreServerConfiguration(controlToken: "bench"))
            else { return { 0 } }
            let body = #"{"productId":"com.example.coins100","account":"bench"}"#
            let request = Array(
                ("POST /openstorekit/v1/purchases HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer bench\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
            let send = ServerBench.run(request, port: server.port, items: items, keep: server)
            let owner = Owner(store: store, cleanup: cleanup)
            return { withExtendedLifetime(owner) { send() } }
        }

        /// Closes a durable store and removes what it made when the workload is released.
        final class Owner {
            let store: SimulatedStore
            let cleanup: () -> Void

            init(store: SimulatedStore, cleanup: @escaping () -> Void) {
                self.store = store
                self.cleanup = cleanup
            }

            deinit {
                try? store.close()
                cleanup()
            }
        }

        /// `url` with its tables in `schema` (libpq's `options` parameter setting `search_path`).
        static func inSchema(_ url: String, _ schema: String) -> String {
            url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
        }

        /// Runs one SQL command with `psql`; whether it succeeded.
        static func psql(_ url: String, _ command: String) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", command]
            process.standardOutput = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
    }
#endif
