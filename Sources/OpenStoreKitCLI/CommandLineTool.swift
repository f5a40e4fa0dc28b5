import Dispatch
import FeedRunner
import Foundation
import Synchronization

/// The `openstorekit` command: argument parsing and the commands, as a library so tests can run it.
///
/// Exit codes: 0 success, 1 an expectation failed (or a receipt did not verify), 2 a usage error or a malformed feed.
public struct CommandLineTool: Sendable {
    /// Where the command writes.
    public struct Output: Sendable {
        /// Writes to standard output.
        public var out: @Sendable (String) -> Void
        /// Writes to standard error.
        public var err: @Sendable (String) -> Void
        /// Whether standard error is a terminal (progress lines are shown only then).
        public var isTerminal: Bool

        /// Creates an output.
        public init(
            out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool
        ) {
            self.out = out
            self.err = err
            self.isTerminal = isTerminal
        }

        /// The process's standard output and error.
        public static var standard: Output {
            Output(
                out: { FileHandle.standardOutput.write(Data($0.utf8)) },
                err: { FileHandle.standardError.write(Data($0.utf8)) },
                isTerminal: isatty(STDERR_FILENO) == 1
            )
        }
    }

    let output: Output

    /// Creates the tool writing to `output`.
    public init(output: Output = .standard) {
        self.output = output
    }

    /// Runs the command with its arguments (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            output.err(Help.overview)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            switch command {
            case "-h", "--help":
                output.out(Help.overview)
                return 0
            case "help":
                guard let topic = rest.first else {
                    output.out(Help.overview)
                    return 0
                }
                guard let text = Help.command(topic) else {
                    throw UsageError(
                        "unknown command \"\(topic)\"; commands are \(Help.commands.joined(separator: ", "))")
                }
                output.out(text)
                return 0
            case "demo":
                return try demo(rest)
            case "run":
                return try runFeeds(rest)
            case "generate":
                return try generate(rest)
            case "receipt":
                return try receipt(rest)
            case "crash-workload":  // not listed: the child process of the crash test
                return try crashWorkload(rest)
            default:
                throw UsageError(
                    "unknown command \"\(command)\"; commands are \(Help.commands.joined(separator: ", "))")
            }
        } catch {
            output.err(
                "openstorekit: \(error.message)\nRun `openstorekit help \(Help.command(command) == nil ? "" : command)` for usage.\n"
            )
            return 2
        }
    }
}

/// A wrong argument: what is wrong.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
