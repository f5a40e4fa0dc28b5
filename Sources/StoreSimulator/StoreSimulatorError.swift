/// An error from the simulated store: a bad configuration file, an unknown product or transaction, an action the
/// store cannot take in its current state.
///
/// Compare errors by ``code``; ``detail`` is for people and may change.
public struct StoreSimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code. The numbers are never reused.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable number.
        public let rawValue: Int
        /// Creates a code from its number.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The configuration file does not exist or cannot be read.
        public static let fileNotFound = Code(rawValue: 100)
        /// The configuration file is not valid JSON.
        public static let invalidJSON = Code(rawValue: 101)
        /// A key of the configuration file is missing or has a value of the wrong kind.
        public static let invalidConfiguration = Code(rawValue: 102)
        /// No product has the given identifier.
        public static let unknownProduct = Code(rawValue: 110)
        /// No transaction has the given identifier.
        public static let unknownTransaction = Code(rawValue: 111)
        /// The product is of a type the action does not apply to.
        public static let invalidProductType = Code(rawValue: 112)
        /// The account has no subscription to the product.
        public static let noSubscription = Code(rawValue: 113)
        /// The transaction is not in a state that allows the action.
        public static let invalidAction = Code(rawValue: 114)
        /// The state file cannot be opened or created: a missing directory, no permission, not a state file (not
        /// an SQLite database, or one of another application), or already open in this process.
        public static let stateUnavailable = Code(rawValue: 120)
        /// The state file is damaged or truncated, or holds an entry this release cannot read. It is left as it is.
        public static let stateCorrupt = Code(rawValue: 121)
        /// The state file was written by a newer release. It is left as it is.
        public static let stateTooNew = Code(rawValue: 122)
        /// Writing the state file failed (a full disk, an I/O error, the store was closed): the changes made from
        /// then on are not durable.
        public static let stateWriteFailed = Code(rawValue: 123)
        /// Moving the clock would produce more subscription renewals than one move may
        /// (``SimulatedStore/maximumRenewalsPerAdvance``). Nothing was applied; move the clock in shorter steps.
        public static let tooManyRenewals = Code(rawValue: 130)
        /// A date or interval is not finite or lies beyond `ManualClock.latestDate`, the last instant a
        /// store's clock can show and a receipt can hold.
        public static let dateOutOfRange = Code(rawValue: 131)
        /// The transaction cannot be signed: it is failed, deferred or still being bought, and the App Store signs
        /// only completed purchases.
        public static let transactionNotSigned = Code(rawValue: 140)
        /// Signing a JWS failed (the signer's key cannot sign, or OpenSSL failed); the detail says why.
        public static let jwsSigningFailed = Code(rawValue: 141)

        /// The code's name and number.
        public var description: String {
            let names: [Int: String] = [
                100: "fileNotFound", 101: "invalidJSON", 102: "invalidConfiguration", 110: "unknownProduct",
                111: "unknownTransaction", 112: "invalidProductType", 113: "noSubscription", 114: "invalidAction",
                120: "stateUnavailable", 121: "stateCorrupt", 122: "stateTooNew", 123: "stateWriteFailed",
                130: "tooManyRenewals", 131: "dateOutOfRange", 140: "transactionNotSigned", 141: "jwsSigningFailed",
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
