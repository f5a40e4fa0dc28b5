import Foundation
import TestSupport
import Testing

/// A file that exists, for the operands a command reads besides the missing one.
private let existing = RepositoryFiles.example("Default.storekit").path

/// Every command and option that reads a file, with the missing file it is given.
private let missingInputs: [(arguments: [String], missing: String)] = [
    (["run", "nosuch.feed"], "nosuch.feed"),
    (["run", RepositoryFiles.example("purchase.feed").path, "nosuch.feed"], "nosuch.feed"),
    (["receipt", "verify", "nosuch", "--test-root"], "nosuch"),
    (["receipt", "verify", existing, "--root", "nosuch.pem"], "nosuch.pem"),
    (["receipt", "dump", "nosuch"], "nosuch"),
    (["jws", "verify", "nosuch", "--test-root"], "nosuch"),
    (["jws", "verify", existing, "nosuch.jws", "--test-root"], "nosuch.jws"),
    (["jws", "verify", existing, "--root", "nosuch.pem"], "nosuch.pem"),
    (["jws", "decode", "nosuch"], "nosuch"),
    (["token", "--api-key", "K=nosuch.p8", "--issuer-id", "issuer", "--bundle-id", "com.example.app"], "nosuch.p8"),
]

@Suite("Missing inputs and misspelt names")
struct MissingInputTests {
    @Test(
        "A missing input is reported alike by every command: `FILE: no such file`, exit 2, nothing run",
        arguments: missingInputs.map(\.arguments))
    func missingInput(arguments: [String]) {
        let missing = missingInputs.first { $0.arguments == arguments }?.missing ?? ""
        let run = runInProcess(arguments)
        #expect(run.code == 2, "\(arguments): \(run.err)")
        #expect(run.err.hasPrefix("openstorekit: \(missing): no such file"), "\(arguments): \(run.err)")
        #expect(run.out.isEmpty, "\(arguments): \(run.out)")
        #expect(!run.err.contains("PASS"), "\(arguments): nothing runs when an input is missing")
    }

    #if Server
        @Test(
            "serve reports a missing --api-key or --config file as the other commands do",
            arguments: [
                (["serve", "--api-key", "K=nosuch.p8"], "nosuch.p8"),
                (["serve", "--config", "nosuch.storekit"], "nosuch.storekit"),
                (
                    ["run", RepositoryFiles.example("purchase.feed").path, "--serve", "--api-key", "K=nosuch.p8"],
                    "nosuch.p8"
                ),
            ])
        func missingServeInput(arguments: [String], missing: String) {
            let run = runInProcess(arguments)
            #expect(run.code == 2, "\(arguments): \(run.err)")
            #expect(run.err.hasPrefix("openstorekit: \(missing): no such file"), "\(arguments): \(run.err)")
            #expect(run.out.isEmpty)
        }
    #endif

    @Test("A misspelt command gets the closest ones, in usage errors and in help")
    func misspeltCommand() {
        let run = runInProcess(["rnu"])
        #expect(run.code == 2)
        #expect(run.err.contains("unknown command \"rnu\": did you mean run?"), "\(run.err)")
        let help = runInProcess(["help", "verison"])
        #expect(help.code == 2)
        #expect(help.err.contains("did you mean version?"), "\(help.err)")
        let far = runInProcess(["xyzzy"])
        #expect(far.code == 2)
        #expect(!far.err.contains("did you mean"), "\(far.err)")
        #expect(far.err.contains("commands are demo, run"), "\(far.err)")
    }

    @Test(
        "Every help text ends with a line feed",
        arguments: [
            ["help"], ["help", "help"], ["help", "version"], ["help", "receipt", "verify"],
            ["help", "receipt", "dump"],
            ["help", "jws", "verify"], ["help", "jws", "decode"], ["help", "crash-workload"], ["help", "token"],
            ["version", "--help"], ["help", "--help"],
        ])
    func helpEndsWithALineFeed(arguments: [String]) {
        let run = runInProcess(arguments)
        #expect(run.code == 0)
        #expect(run.out.hasSuffix("\n") && !run.out.hasSuffix("\n\n\n"), "\(arguments): \(run.out.suffix(40))")
    }
}
