#if Server
    /// An error from the server side: an address it may not or cannot listen on, an unreadable API key, a bad option.
    ///
    /// Compare errors by ``code``; ``detail`` is for people and may change.
    public struct StoreServerError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A stable error code. The numbers are never reused.
        public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            /// The stable number.
            public let rawValue: Int
            /// Creates a code from its number.
            public init(rawValue: Int) { self.rawValue = rawValue }

            /// The host is not a numeric IPv4 or IPv6 address (nor `localhost`).
            public static let invalidAddress = Code(rawValue: 100)
            /// The host is not a loopback address and binding to it was not explicitly allowed.
            public static let nonLoopbackAddress = Code(rawValue: 101)
            /// The HTTP library could not listen (the port is taken, no permission).
            public static let cannotListen = Code(rawValue: 102)
            /// An API key file cannot be read or is not an ECDSA P-256 PKCS#8 key.
            public static let apiKeyUnreadable = Code(rawValue: 110)
            /// An option has a value the server cannot use; the detail names it.
            public static let invalidOption = Code(rawValue: 111)
            /// The notification history in the state file cannot be read or written.
            public static let notificationStateFailed = Code(rawValue: 120)

            /// The code's name and number.
            public var description: String {
                let names: [Int: String] = [
                    100: "invalidAddress", 101: "nonLoopbackAddress", 102: "cannotListen", 110: "apiKeyUnreadable",
                    111: "invalidOption", 120: "notificationStateFailed",
                ]
                return "\(names[rawValue] ?? "code") (\(rawValue))"
            }
        }

        /// What kind of error this is.
        public let code: Code
        /// What went wrong and what to do, for people.
        public let detail: String

        /// Creates an error.
        public init(_ code: Code, _ detail: String) {
            self.code = code
            self.detail = detail
        }

        /// The detail text.
        public var description: String { detail }

        /// Errors are equal when their codes are.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
        /// Hashes the code only.
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    }
#endif
