import Foundation
import Ledger
import ReceiptKit
import StoreModels
import StoreSimulator
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the kills fall: a seeded generator, so a seed gives the same plan every run.
private struct KillPlan {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next(below bound: UInt64) -> UInt64 { random.next() % bound }
}

/// The `openstorekit` executable built with the tests: next to the test bundle (the test target depends on it).
private func openstorekitExecutable() throws -> String {
    var candidates: [String] = []
    if let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(
            URL(fileURLWithPath: test).deletingLastPathComponent().appendingPathComponent("openstorekit").path)
    }
    if let main = Bundle.main.executableURL {
        candidates.append(main.deletingLastPathComponent().appendingPathComponent("openstorekit").path)
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        candidates.append(
            URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent().appendingPathComponent("openstorekit")
                .path)
    }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw CrashTestError(
            "the openstorekit executable is not next to the test bundle (looked at \(candidates)); "
                + "build it with `swift build`")
    }
    return found
}

private struct CrashTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A child process with its standard output in a pipe, read line by line.
private final class Child {
    let pid: pid_t
    private let output: Int32
    private var buffer: [UInt8] = []
    private var finished = false

    init(_ executable: String, _ arguments: [String], errorLog: String) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw CrashTestError("pipe failed: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard rc == 0 else {
            close(pipeEnds[0])
            throw CrashTestError("cannot start \(executable): error \(rc)")
        }
        self.pid = pid
        self.output = pipeEnds[0]
    }

    deinit { close(output) }

    /// The next line of output, or `nil` at the end.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard !finished else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                finished = true
            }
        }
    }

    /// Kills the process with SIGKILL and reaps it.
    func kill9() {
        _ = kill(pid, SIGKILL)
        _ = waitForExit()
    }

    /// Waits for the process to end; its exit status, or -signal.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if status & 0x7F == 0 { return (status >> 8) & 0xFF }
        return -(status & 0x7F)
    }
}

/// What a crash run did and found.
private struct CrashFigures: CustomStringConvertible {
    var kills = 0
    /// Kills before the first line: while the process opened and replayed the file.
    var killsWhileStarting = 0
    /// Kills right after a grant was committed, before its transaction was finished.
    var killsAfterGrant = 0
    var runs = 0
    var steps = 0
    var charges = 0
    var grants = 0
    var restoredGrants = 0
    var lost = 0
    var duplicated = 0
    var unexpected = 0

    var description: String {
        "\(kills) kills (\(killsWhileStarting) while starting, \(killsAfterGrant) between a grant and its finish) over "
            + "\(runs) runs, \(steps) steps, \(charges) charges, \(grants) grants "
            + "(\(restoredGrants) of restored transactions), lost \(lost), duplicated \(duplicated), "
            + "granted without a charge \(unexpected)"
    }
}

@Suite("Crash test")
struct CrashTests {
    /// Runs the workload in a child process on one state file, killing it with SIGKILL `kills` times at seeded
    /// points (after a seeded number of its output lines), restarting it each time, then lets it finish.
    private static func crashRun(seed: UInt64, kills target: Int, steps: Int, directory: String) throws -> CrashFigures
    {
        let executable = try openstorekitExecutable()
        let state = directory + "/state.sqlite"
        let errors = directory + "/stderr.log"
        var plan = KillPlan(seed: seed)
        var figures = CrashFigures()
        while true {
            // Alternate per-change commits and group commits of various sizes, and snapshots, across restarts.
            let commitEvery = [1, 1, 4, 16, 64][Int(plan.next(below: 5))]
            let compactEvery = [0, 0, 0, 50][Int(plan.next(below: 4))]
            let child = try Child(
                executable,
                [
                    "crash-workload", "--state", state, "--seed", String(seed), "--steps", String(steps),
                    "--commit-every", String(commitEvery), "--compact-every", String(compactEvery),
                ], errorLog: errors)
            figures.runs += 1
            if figures.kills < target {
                // Kill after a random number of lines: 0 kills it while it starts (opening, replaying).
                let lines = Int(plan.next(below: 7))
                var read = 0
                var ended = false
                var last = ""
                while read < lines {
                    guard let line = child.readLine() else {
                        ended = true
                        break
                    }
                    if line.hasPrefix("done") { ended = true }
                    last = line
                    read += 1
                }
                if !ended {
                    child.kill9()
                    figures.kills += 1
                    if lines == 0 { figures.killsWhileStarting += 1 }
                    if last.hasPrefix("granted") { figures.killsAfterGrant += 1 }
                    continue
                }
            }
            var last = ""
            while let line = child.readLine() { last = line }
            let status = child.waitForExit()
            guard status == 0, last == "done \(steps)" else {
                let log = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                throw CrashTestError("the workload ended with status \(status) after \"\(last)\": \(log)")
            }
            break
        }
        figures.steps = steps
        try check(state: state, into: &figures)
        return figures
    }

    /// Checks the promises on the state file the workload left: every charge granted exactly once, nothing granted
    /// twice or without a charge, nothing left unfinished, the consumable balance and the receipt agreeing with the
    /// history.
    private static func check(state: String, into figures: inout CrashFigures) throws {
        let store = try SimulatedStore(statePath: state, lane: .manual)
        defer { try? store.close() }
        let ledger = try #require(store.ledger)
        let history = store.allTransactions()
        let charges = history.filter { $0.state == .purchased }
        let grants = try ledger.read { txn in try txn.logEntries(in: "grants") }.map {
            String(decoding: $0.payload, as: UTF8.self).split(separator: " ").map(String.init)
        }
        var grantsByID: [String: [[String]]] = [:]
        for grant in grants { grantsByID[grant[0], default: []].append(grant) }
        figures.charges = charges.count
        figures.grants = grants.count
        figures.restoredGrants = grants.filter { $0[2] == "restore" }.count
        let chargeIDs = Set(charges.map { String($0.id) })
        figures.lost = chargeIDs.filter { grantsByID[$0] == nil }.count
        figures.duplicated = grantsByID.values.filter { $0.count > 1 }.count
        figures.unexpected = grantsByID.filter { !chargeIDs.contains($0.key) && $0.value[0][2] != "restore" }.count
        #expect(figures.lost == 0, "charges never granted")
        #expect(figures.duplicated == 0, "transactions granted more than once")
        #expect(figures.unexpected == 0, "grants without a charge")
        for id in grantsByID.keys {
            #expect(try ledger.read { txn in try txn.containsStamp(forKey: id) }, "grant \(id) not recorded")
        }
        #expect(store.unfinishedTransactions(deviceID: "crash-device").isEmpty, "everything was finished")
        // The consumable balance is what the charges paid for.
        let coins = try ledger.read { txn in try txn.metaInteger(forKey: "coins") } ?? 0
        let paid = charges.filter { $0.productID == "com.example.coins100" }.reduce(0) { $0 + 100 * $1.quantity }
        #expect(coins == Int64(paid))
        // The receipt, verified, lists exactly the history's non-consumable and subscription purchases (and no
        // consumable: all are finished).
        let device = "crash-device"
        let verifier = try ReceiptVerifier(trustedRoots: [], trustsTestRoot: true)
        let receipt = try verifier.verify(
            try store.appReceipt(deviceID: device),
            options: ReceiptVerificationOptions(
                time: .date(store.now), bundleIdentifier: store.app.bundleIdentifier,
                deviceIdentifier: SimulatedStore.deviceIdentifier(for: device))
        ).receipt
        let listed = receipt.inAppPurchases.map(\.transactionIdentifier).sorted()
        let owned = charges.filter { $0.productType != .consumable }.map { String($0.id) }.sorted()
        #expect(listed == owned)
        #expect(!owned.isEmpty || charges.allSatisfy { $0.productType == .consumable })
    }

    @Test("Crash: kill -9 at random points, restart on the same state file; no purchase lost, none granted twice")
    func crashAndRestart() async throws {
        let long = ProcessInfo.processInfo.environment["OPENSTOREKIT_LONG_CRASH_TEST"] == "1"
        let seed = ProcessInfo.processInfo.environment["OPENSTOREKIT_CRASH_SEED"].flatMap(UInt64.init) ?? 20_260_101
        let kills = long ? 200 : 20
        let steps = long ? 1_200 : 150
        let directory = FileManager.default.temporaryDirectory.path + "/crash-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The child processes are waited for on a thread of their own, not on the test's task.
        let result: Result<CrashFigures, any Error> = try await bounded(
            "the crash runs", within: .seconds(long ? 7_200 : 900)
        ) {
            await withCheckedContinuation { continuation in
                Thread {
                    continuation.resume(
                        returning: Result {
                            try Self.crashRun(seed: seed, kills: kills, steps: steps, directory: directory)
                        })
                }.start()
            }
        }
        let figures = try result.get()
        print("crash test (seed \(seed)): \(figures)")
        #expect(figures.kills == kills)
        #expect(figures.charges > steps / 2)
        #expect(figures.lost == 0)
        #expect(figures.duplicated == 0)
    }
}
