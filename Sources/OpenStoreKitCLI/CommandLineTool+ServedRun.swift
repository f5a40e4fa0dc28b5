import FeedRunner

extension CommandLineTool {
    /// The options of `run` that serve's are, which apply only with `--serve`.
    static let serveOptions = [
        "--host", "--port", "--issuer-id", "--bundle-id", "--notifications-url", "--control-token", "--api-key",
        "--allow-remote", "--keep-serving",
    ]

    /// Refuses serve's options in a run without `--serve`.
    private static func checkServeOptions(_ options: Arguments) throws(UsageError) {
        guard !options.flags.contains("--serve") else { return }
        for name in serveOptions
        where options.values[name] != nil || options.flags.contains(name) || options.repeated[name] != nil {
            throw UsageError("\(name) applies to a served run; add --serve to serve the feed's store")
        }
    }

    #if Server
        /// The server of `run --serve`, or nil without `--serve`.
        func feedServer(_ options: Arguments) throws(UsageError) -> FeedServerBridge? {
            try Self.checkServeOptions(options)
            guard options.flags.contains("--serve") else { return nil }
            return FeedServerBridge(
                configuration: try Self.serverConfiguration(options),
                keepServing: options.flags.contains("--keep-serving"), output: output)
        }
    #else
        /// Nil: this build has no server (`run --serve` is refused before this is asked).
        func feedServer(_ options: Arguments) throws(UsageError) -> (any FeedServer)? {
            try Self.checkServeOptions(options)
            return nil
        }
    #endif
}
