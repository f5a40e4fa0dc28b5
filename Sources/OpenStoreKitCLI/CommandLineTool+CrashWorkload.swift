import Foundation
import PurchasesTest
import StoreSimulator

extension CommandLineTool {
    /// `openstorekit crash-workload --state PATH|--database URL --seed S --steps N [--commit-every K]
    /// [--compact-every C] [--format 1]`: runs the crash test's workload (see ``CrashWorkload``) on a state file (or a
    /// server database), printing one line per acknowledged step and grant. Exit codes: 0 done, 1 the workload found
    /// a broken promise, 2 a usage error or an unusable state file.
    func crashWorkload(_ arguments: [String]) throws(UsageError) -> Int32 {
        let options = try Arguments(
            arguments, command: "crash-workload",
            valued: ["--state", "--database", "--seed", "--steps", "--commit-every", "--compact-every", "--format"])
        if printsHelp(options, for: "crash-workload") { return 0 }
        guard let state = try StoreDatabaseOption(options, command: "crash-workload")?.value else {
            throw UsageError("crash-workload needs --state PATH or --database PATH|URL")
        }
        guard let seedText = options.values["--seed"], let seed = UInt64(seedText) else {
            throw UsageError("crash-workload needs --seed S, a whole number")
        }
        let steps = try options.integer("--steps", default: 100, range: 1...10_000_000)
        let commitEvery = try options.integer("--commit-every", default: 1, range: 1...100_000)
        let compactEvery = try options.integer("--compact-every", default: 0, range: 0...10_000_000)
        let format = try options.integer("--format", default: 2, range: 1...2)
        let workload = CrashWorkload(
            statePath: state, seed: seed, steps: steps, commitEvery: commitEvery,
            compactEvery: compactEvery == 0 ? StoreDurability.defaultCompactEvery : compactEvery,
            writesFirstFormat: format == 1,
            print: { output.out($0 + "\n") })
        do throws(CrashWorkload.Failure) {
            try workload.run()
            return 0
        } catch {
            output.err("openstorekit crash-workload: \(error.message)\n")
            return error.message.hasPrefix("delivery audit") ? 1 : 2
        }
    }
}
