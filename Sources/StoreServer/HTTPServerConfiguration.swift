#if Server
    /// Where and how a ``StoreServer/StoreServer`` listens, and the limits it puts on clients.
    public struct HTTPServerConfiguration: Sendable, Hashable {
        /// The numeric IPv4 or IPv6 address to listen on (`localhost` means `127.0.0.1`); loopback by default.
        public var host: String
        /// The port; 0 lets the system pick one (read it from ``StoreServer/StoreServer/port``).
        public var port: UInt16
        /// Whether an address other than loopback is allowed. Off by default: a server that other machines can reach
        /// must be asked for.
        public var allowsNonLoopback: Bool
        /// The largest request body accepted; a larger one is answered 413 without being kept.
        public var maximumBodySize: Int
        /// The longest request target (path and query, as sent) accepted, in bytes, at most 16 KiB; a longer one is
        /// answered 414.
        public var maximumTargetLength: Int
        /// The most query parameters a request may have, at most 512; more are answered 414.
        public var maximumQueryParameters: Int
        /// Seconds a connection may stay idle (a slow or silent client) before it is closed; the time a handler takes
        /// to answer does not count.
        public var connectionTimeout: Int
        /// How many connections may be open at once (each is served by a thread of its own); more are refused until
        /// one closes.
        public var connectionLimit: Int

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1", port: UInt16 = 0, allowsNonLoopback: Bool = false,
            maximumBodySize: Int = 1 << 20, maximumTargetLength: Int = 8192, maximumQueryParameters: Int = 256,
            connectionTimeout: Int = 15, connectionLimit: Int = 256
        ) {
            self.host = host
            self.port = port
            self.allowsNonLoopback = allowsNonLoopback
            self.maximumBodySize = maximumBodySize
            self.maximumTargetLength = min(maximumTargetLength, 16 * 1024)
            self.maximumQueryParameters = min(maximumQueryParameters, 512)
            self.connectionTimeout = connectionTimeout
            self.connectionLimit = connectionLimit
        }

        /// The address actually bound: ``host``, with `localhost` as `127.0.0.1`.
        public var numericHost: String {
            host.lowercased() == "localhost" ? "127.0.0.1" : host
        }

        /// Whether ``host`` is a loopback address (127.0.0.0/8, `::1`, `localhost`).
        public var isLoopback: Bool {
            let host = numericHost
            if host == "::1" { return true }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
        }
    }
#endif
