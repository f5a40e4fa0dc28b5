/// A malformed feed, or one that cannot be read: where (`file:line:column`), what is wrong and how to fix it.
///
/// Compare errors by ``code``; the texts are for people.
public struct FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code. The numbers are never reused.
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The stable number.
        public let rawValue: Int
        /// Creates a code from its number.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The feed file cannot be read.
        public static let unreadable = Code(rawValue: 200)
        /// A line starts with a word that is not a step.
        public static let unknownStep = Code(rawValue: 201)
        /// A step lacks an argument or has one too many.
        public static let wrongArguments = Code(rawValue: 202)
        /// An argument has the wrong form (a number, a duration, a state, an error code, a date).
        public static let invalidValue = Code(rawValue: 203)
        /// A handle is used before a step names it, or named twice.
        public static let unknownHandle = Code(rawValue: 204)
        /// The `.storekit` file a `config` step names cannot be loaded.
        public static let badConfiguration = Code(rawValue: 205)
        /// A product the feed names is not in the catalog.
        public static let unknownProduct = Code(rawValue: 206)
        /// The state file given to run the feed on (`--state`) cannot be opened, reopened or written.
        public static let unusableState = Code(rawValue: 207)
        /// The feed is not UTF-8 text: bytes that are not UTF-8, or a control character such as NUL.
        public static let notText = Code(rawValue: 208)
        /// The feed has no steps: only blank lines and comments.
        public static let noSteps = Code(rawValue: 209)
        /// A number, duration or date is outside the bounds a feed allows (docs/feeds.md).
        public static let outOfBounds = Code(rawValue: 210)
        /// The feed expects notifications (`expect notification ...`), which only a served run sends
        /// (`openstorekit run FEED --serve`).
        public static let needsServer = Code(rawValue: 211)
        /// The server a served run needs cannot start (its port is taken, for instance).
        public static let serverUnavailable = Code(rawValue: 212)
    }

    /// What kind of error this is.
    public let code: Code
    /// The feed file's name as given.
    public let file: String
    /// The 1-based line.
    public let line: Int
    /// The 1-based column of the offending word.
    public let column: Int
    /// What is wrong.
    public let message: String
    /// How to fix it.
    public let hint: String

    /// Creates an error.
    public init(_ code: Code, file: String, line: Int, column: Int, _ message: String, hint: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// `file:line:column: error: message` (`file: error: message` for the file as a whole) and, on the next line, the
    /// hint.
    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return "\(place): error: \(message)\n    hint: \(hint)"
    }

    /// Errors are equal when their codes and places are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.file == rhs.file && lhs.line == rhs.line && lhs.column == rhs.column
    }

    /// Hashes the code and place.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(line)
        hasher.combine(column)
    }
}
