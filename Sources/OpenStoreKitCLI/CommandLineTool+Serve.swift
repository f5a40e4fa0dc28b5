import Foundation

#if Server
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
#endif

extension CommandLineTool {
    /// What `serve` (and `run --serve`) says in a build without the package trait `Server`.
    static func needsTrait(_ command: String) -> String {
        """
        openstorekit \(command): this build has no HTTP server. It needs GNU libmicrohttpd's headers and the package \
        trait Server:
          apt-get update && apt-get install -y libmicrohttpd-dev   (Debian, Ubuntu; brew install libmicrohttpd; \
        dnf install libmicrohttpd-devel)
          swift build --traits Server --scratch-path .build/server   (then .build/server/debug/openstorekit \(command) ...)
        The separate scratch path keeps the server build: a plain `swift build` or `swift run` into .build replaces a \
        binary built there with --traits Server by one without the server.

        """
    }

    func serve(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(
            arguments, command: "serve", valued: Help.options["serve"] ?? [], flags: ["--allow-remote"],
            multi: ["--api-key"])
        if printsHelp(options, for: "serve") { return 0 }
        guard options.operands.isEmpty else { throw UsageError("serve takes no operands, only options") }
        let database = try StoreDatabaseOption(options, command: "serve")
        #if Server
            return try serveWithServer(options, database: database)
        #else
            output.err(Self.needsTrait("serve"))
            return 2
        #endif
    }

    #if Server
        /// The server's configuration from `serve`'s options (which `run --serve` takes too).
        static func serverConfiguration(_ options: Arguments) throws(UsageError) -> StoreServerConfiguration {
            let port = try options.integer("--port", default: 0, range: 0...65535)
            var keys: [APIKey] = []
            for argument in options.repeated["--api-key"] ?? [] {
                if let equals = argument.firstIndex(of: "="), argument.index(after: equals) != argument.endIndex {
                    try InputFile.mustExist(String(argument[argument.index(after: equals)...]), option: "--api-key")
                }
                do throws(StoreServerError) {
                    keys.append(try APIKey(argument: argument))
                } catch {
                    throw UsageError(error.detail)
                }
            }
            var notificationsURL: URL?
            if let text = options.values["--notifications-url"] {
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                    url.host != nil
                else {
                    throw UsageError("--notifications-url takes an http:// or https:// URL, not \"\(text)\"")
                }
                notificationsURL = url
            }
            if let bundleID = options.values["--bundle-id"], bundleID.isEmpty {
                throw UsageError("--bundle-id needs a bundle identifier")
            }
            var rateLimits: RateLimits?
            if let text = options.values["--rate-limits"] {
                guard let limits = RateLimits(rawValue: text) else {
                    throw UsageError("--rate-limits takes apple or sandbox, not \"\(text)\"")
                }
                rateLimits = limits
            }
            var delivery = NotificationDelivery.production
            if let text = options.values["--delivery"] {
                guard let mode = NotificationDelivery(rawValue: text) else {
                    throw UsageError("--delivery takes production or sandbox, not \"\(text)\"")
                }
                delivery = mode
            }
            return StoreServerConfiguration(
                http: HTTPServerConfiguration(
                    host: options.values["--host"] ?? "127.0.0.1", port: UInt16(port),
                    allowsNonLoopback: options.flags.contains("--allow-remote")),
                apiKeys: keys, issuerID: options.values["--issuer-id"] ?? "",
                bundleID: options.values["--bundle-id"], notificationsURL: notificationsURL,
                controlToken: options.values["--control-token"], rateLimits: rateLimits,
                notificationDelivery: delivery)
        }

        private func serveWithServer(_ options: Arguments, database: StoreDatabaseOption?) throws(UsageError)
            -> Int32
        {
            let serverConfiguration = try Self.serverConfiguration(options)
            var configuration = StoreConfiguration.demo
            if let path = options.values["--config"] {
                try InputFile.mustExist(path, option: "--config")
                do throws(StoreSimulatorError) {
                    configuration = try StoreConfiguration(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    throw UsageError("--config \(path): \(error.detail)")
                }
            }
            var app = AppIdentity()
            if let bundleID = serverConfiguration.bundleID { app.bundleIdentifier = bundleID }
            // A new store's clock starts at the wall clock's second, so that tokens minted from the wall clock are
            // valid on it; a state file (or server database) keeps its own clock.
            let clock = ManualClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
            let store: SimulatedStore
            if let database {
                // A server database keeps the history in itself, read when the server starts.
                if !database.isServer {
                    do throws(StoreServerError) {
                        // Before the state file is made: a refused history leaves nothing new behind.
                        try StoreServer.checkNotificationHistory(statePath: database.value)
                    } catch {
                        output.err("openstorekit: \(error.detail)\n")
                        return 2
                    }
                }
                do throws(StoreSimulatorError) {
                    store = try SimulatedStore(
                        database: database.value, configuration: configuration, clock: clock, lane: .manual, app: app)
                } catch {
                    // The error names the database without its password; the URL as given may hold one.
                    let given = database.isServer ? "" : " \(database.value)"
                    output.err("openstorekit: \(database.option)\(given): \(error.detail)\n")
                    return 2
                }
            } else {
                store = SimulatedStore(configuration: configuration, clock: clock, lane: .manual, app: app)
            }
            let server: StoreServer
            do throws(StoreServerError) {
                server = try StoreServer(store: store, configuration: serverConfiguration)
            } catch {
                try? store.close()
                output.err("openstorekit: \(error.detail)\n")
                return 2
            }
            TerminationSignal.install()  // before the URL shows: a signal sent on seeing it stops the server cleanly
            output.out(server.baseURL.absoluteString + "\n")
            if !server.configuration.http.isLoopback {
                output.err(
                    "openstorekit: serving on \(server.configuration.http.host), reachable from other machines "
                        + "(--allow-remote); the control API still answers loopback clients only\n")
            }
            if serverConfiguration.apiKeys.isEmpty {
                output.err(
                    "openstorekit: no --api-key given: every App Store Server API request will be refused (401)\n")
            }
            output.err(
                "openstorekit: control API at \(server.baseURL.absoluteString)/openstorekit/v1/, token \(server.controlToken)\n"
            )
            TerminationSignal.wait()
            server.stop()
            do throws(StoreSimulatorError) {
                if store.isDurable { try store.close() }
            } catch {
                output.err("openstorekit: \(database?.option ?? "--state"): \(error.detail)\n")
                return 2
            }
            if let problem = server.notifications.historyError {
                output.err("openstorekit: \(problem.detail)\n")
                return 2
            }
            return 0
        }
    #endif
}
