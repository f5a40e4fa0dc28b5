import Dispatch
import FeedRunner
import Foundation
import StoreModels
import Synchronization

/// The `openstorekit` command: argument parsing and the commands, as a library so tests can run it.
///
/// Exit codes: 0 success, 1 an expectation failed (or a receipt or JWS did not verify), 2 a usage error, a malformed
/// feed or an output (standard output or error included) that could not be written.
public struct CommandLineTool: Sendable {
    /// Where the command writes.
    public struct Output: Sendable {
        /// Writes to standard output.
        public var out: @Sendable (String) -> Void
        /// Writes to standard error.
        public var err: @Sendable (String) -> Void
        /// Whether standard error is a terminal (progress lines are shown only then).
        public var isTerminal: Bool
        /// Why writing to the process's standard output or error failed, nil when it did not (or for an output that
        /// is not the process's).
        var problem: @Sendable () -> String? = { nil }
        /// A monotonic clock in nanoseconds, which progress lines are timed by.
        var clock: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }

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
            var output = Output(
                out: { StandardStream.output.write($0) },
                err: { StandardStream.error.write($0) },
                isTerminal: isatty(STDERR_FILENO) == 1
            )
            output.problem = { StandardStream.output.problem ?? StandardStream.error.problem }
            return output
        }
    }

    let output: Output

    /// Creates the tool writing to `output`.
    public init(output: Output = .standard) {
        self.output = output
    }

    /// Runs the command with its arguments (without the program name) and returns the exit code: 2 when the
    /// process's standard output or error could not be written (reported on standard error when that still can be).
    public func run(_ arguments: [String]) -> Int32 {
        let code = runCommand(arguments)
        guard let problem = output.problem() else { return code }
        output.err("openstorekit: cannot write to \(problem)\n")
        return 2
    }

    private func runCommand(_ arguments: [String]) -> Int32 {
        _ = OutputFileWriter.creationMask
        guard let command = arguments.first else {
            output.err(Help.overview + "\nopenstorekit: give a command, such as `openstorekit demo`.\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            switch command {
            case "-h", "--help":
                output.out(Help.overview)
                return 0
            case "--version", "version":
                let options = try Arguments(rest, command: "version")
                guard options.operands.isEmpty else { throw UsageError("version takes no operands") }
                output.out(
                    options.wantsHelp ? Help.command("version") ?? "" : "openstorekit \(OpenStoreKitRelease.version)\n")
                return 0
            case "help":
                let options = try Arguments(rest, command: "help")
                guard !options.wantsHelp, let topic = options.operands.first else {
                    output.out(options.wantsHelp ? Help.command("help") ?? "" : Help.overview)
                    return 0
                }
                let subtopic = options.operands.dropFirst().joined(separator: " ")
                guard let text = Help.command(subtopic.isEmpty ? topic : "\(topic) \(subtopic)") else {
                    let close = subtopic.isEmpty ? EditDistance.closest(to: topic, among: Help.commands) : []
                    throw UsageError(
                        "unknown command \"\(options.operands.joined(separator: " "))\""
                            + (close.isEmpty ? "" : ": did you mean " + close.joined(separator: " or ") + "?")
                            + " (commands are " + Help.commands.joined(separator: ", ") + ")")
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
            case "jws":
                return try jws(rest)
            case "serve":
                return try serve(rest)
            case "token":
                return try token(rest)
            case "check-state":
                return try checkState(rest)
            case "crash-workload":  // not listed: the child process of the crash test
                return try crashWorkload(rest)
            default:
                let close = EditDistance.closest(to: command, among: Help.commands)
                throw UsageError(
                    "unknown command \"\(command)\""
                        + (close.isEmpty ? "" : ": did you mean " + close.joined(separator: " or ") + "?")
                        + " (commands are \(Help.commands.joined(separator: ", ")))")
            }
        } catch {
            let topic = Help.command(command) == nil ? "" : " \(command)"
            output.err("openstorekit: \(error.message)\nRun `openstorekit help\(topic)` for usage.\n")
            return 2
        }
    }

    /// Prints the usage of `command` when `options` asked for it; returns whether it did.
    func printsHelp(_ options: Arguments, for command: String) -> Bool {
        guard options.wantsHelp else { return false }
        output.out(Help.command(command) ?? Help.overview)
        return true
    }

    /// Standard output as bytes, for outputs given `-`.
    var standardOutputData: @Sendable (Data) -> Void {
        let out = output.out
        return { data in out(String(decoding: data, as: UTF8.self)) }
    }
}

/// A wrong argument: what is wrong.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
