import Foundation
import Ledger
import ReceiptKit
import StoreModels
import StoreSimulator
import Synchronization
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

private struct CrashTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The child process the crash runs are on, so that the test's time bound can end it.
private final class CrashChildren: Sendable {
    private let state = Mutex<(current: ChildProcess?, stopped: Bool)>((nil, false))

    /// Starts the next child, unless the runs were stopped.
    func start(_ arguments: [String], errorLog: String) throws -> ChildProcess {
        try state.withLock { state throws -> ChildProcess in
            guard !state.stopped else { throw CrashTestError("the crash runs were stopped: they took too long") }
            let child = try ChildProcess(arguments, errorLog: errorLog)
            state.current = child
            return child
        }
    }

    /// Stops the runs: the current child is killed, and no other starts.
    func stop() {
        let child = state.withLock { state -> ChildProcess? in
            state.stopped = true
            return state.current
        }
        child?.kill9()
    }
}

/// What a crash run did and found.
private struct CrashFigures: CustomStringConvertible {
    var kills = 0
    /// Kills before the process had opened the file: while it started, read, replayed or migrated the file.
    var killsWhileStarting = 0
    /// Of those, kills while a file of format 1 was being migrated (after the process said it was opening it).
    var killsWhileMigrating = 0
    /// Of the kills while migrating, those that landed before the migration committed (the file kept format 1).
    var migrationsUndone = 0
    /// Kills right after the store said it was compacting (writing its changed rows).
    var killsWhileCompacting = 0
    /// Runs that wrote the file in store format 1, as earlier releases did, before it was migrated.
    var firstFormatRuns = 0
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
        "\(kills) kills (\(killsWhileStarting) while starting, of which \(killsWhileMigrating) while migrating (\(migrationsUndone) before it committed), "
            + "\(killsWhileCompacting) while compacting, \(killsAfterGrant) between a grant and its finish) over \(runs) runs (\(firstFormatRuns) in format 1), "
            + "\(steps) steps, \(charges) charges, \(grants) grants "
            + "(\(restoredGrants) of restored transactions), lost \(lost), duplicated \(duplicated), "
            + "granted without a charge \(unexpected)"
    }
}

@Suite("Crash test")
struct CrashTests {
    /// Runs the workload in a child process on one state file (or the server database `database` names), killing it
    /// with SIGKILL `kills` times at seeded points (after a seeded number of its output lines), restarting it each
    /// time, then lets it finish.
    private static func crashRun(
        seed: UInt64, kills target: Int, steps: Int, directory: String, database: String?, children: CrashChildren
    ) throws -> CrashFigures {
        let state = database ?? directory + "/state.sqlite"
        let errors = directory + "/stderr.log"
        var plan = KillPlan(seed: seed)
        var figures = CrashFigures()
        // The first runs write the file in store format 1, as earlier releases did; the next ones migrate it, and
        // the first few of those are killed while they migrate (right after their `migrating` line). A server
        // database is always written in the current format.
        let drawnFirstFormatRuns = 1 + Int(plan.next(below: 3))
        let drawnMigrationKills = 1 + Int(plan.next(below: 3))
        let firstFormatRuns = database == nil ? drawnFirstFormatRuns : 0
        var migrationKills = database == nil ? drawnMigrationKills : 0
        while true {
            // Alternate per-change commits and group commits of various sizes, and compactions of the journal into
            // the tables (every 20 or 50 changes, or the default), across restarts.
            let commitEvery = [1, 1, 4, 16, 64][Int(plan.next(below: 5))]
            let compactEvery = [0, 0, 20, 50][Int(plan.next(below: 4))]
            let firstFormat = figures.runs < firstFormatRuns
            let migrating = figures.runs >= firstFormatRuns && migrationKills > 0
            let child = try children.start(
                [
                    "crash-workload", database == nil ? "--state" : "--database", state, "--seed", String(seed),
                    "--steps", String(steps),
                    "--commit-every", String(commitEvery), "--compact-every", String(compactEvery),
                ] + (firstFormat ? ["--format", "1"] : []), errorLog: errors)
            figures.runs += 1
            if firstFormat { figures.firstFormatRuns += 1 }
            if figures.kills < target {
                // Kill after a random number of lines: 0 kills it while it starts, 1 (`opening`) while it opens the
                // file (reading, replaying, migrating).
                // A third of the runs that compact often are killed right after their first `compacting` line.
                let atCompaction = !migrating && compactEvery > 0 && plan.next(below: 3) == 0
                let lines = migrating ? 2 : atCompaction ? 500 : Int(plan.next(below: 7))
                if migrating { migrationKills -= 1 }
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
                    if migrating, line == "migrating" { break }
                    if atCompaction, line == "compacting" { break }
                }
                if !ended {
                    child.kill9()
                    figures.kills += 1
                    if lines == 0 || ["opening", "migrating"].contains(last) { figures.killsWhileStarting += 1 }
                    if last == "migrating" { figures.killsWhileMigrating += 1 }
                    if last == "compacting" { figures.killsWhileCompacting += 1 }
                    if last == "migrating", Self.storeFormat(of: state) == 1 { figures.migrationsUndone += 1 }
                    if last.hasPrefix("granted") { figures.killsAfterGrant += 1 }
                    continue
                }
            }
            var last = ""
            while let line = child.readLine() { last = line }
            let status = child.waitForExit()
            guard status == 0, last == "done \(steps)" else {
                let silent = child.timedOut ? " (killed: it wrote nothing for too long)" : ""
                throw CrashTestError(
                    "the workload ended with status \(status)\(silent) after \"\(last)\": \(child.errors)")
            }
            break
        }
        figures.steps = steps
        try check(state: state, into: &figures)
        return figures
    }

    /// What the check of ``storeFormat(of:)`` found.
    private struct Peeked: Error {
        let format: Int64?
    }

    /// The store format of an existing state file, read through Ledger's read-only check (which leaves the file as
    /// it is); `nil` if there is none.
    private static func storeFormat(of path: String) -> Int64? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            _ = try LedgerDatabase(path: path) { txn in
                throw Peeked(format: try txn.metaInteger(forKey: "openstorekit.store.format"))
            }
        } catch let peeked as Peeked {
            return peeked.format
        } catch {
            return nil
        }
        return nil
    }

    /// Checks the promises on the state file (or server database) the workload left: every charge granted exactly
    /// once, nothing granted twice or without a charge, nothing left unfinished, the consumable balance and the receipt
    /// agreeing with the history.
    private static func check(state: String, into figures: inout CrashFigures) throws {
        let store = try SimulatedStore(database: state, lane: .manual)
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
        let figures = try await Self.crashRuns(seed: seed, kills: kills, steps: steps, long: long, database: nil)
        print("crash test (seed \(seed)): \(figures)")
        #expect(figures.kills == kills)
        #expect(figures.charges > steps / 2)
        #expect(figures.lost == 0)
        #expect(figures.duplicated == 0)
    }

    #if Postgres
        @Test(
            "Crash on a PostgreSQL server: kill -9 at random points, restart on the same database; none lost or twice",
            .requiresPostgres)
        func crashAndRestartOnServer() async throws {
            let seed = ProcessInfo.processInfo.environment["OPENSTOREKIT_CRASH_SEED"].flatMap(UInt64.init) ?? 20_261_208
            let schema = try LedgerDatabase.makeScratchSchema(serverURL: TestPostgres.url ?? "")
            defer { schema.drop() }
            let kills = 12
            let steps = 100
            let figures = try await Self.crashRuns(
                seed: seed, kills: kills, steps: steps, long: false, database: schema.url)
            print("crash test on a server (seed \(seed)): \(figures)")
            #expect(figures.kills == kills)
            #expect(figures.firstFormatRuns == 0)
            #expect(figures.charges > steps / 2)
            #expect(figures.lost == 0)
            #expect(figures.duplicated == 0)
        }
    #endif

    /// Runs ``crashRun(seed:kills:steps:directory:database:children:)`` on a thread of its own, within a bound.
    private static func crashRuns(
        seed: UInt64, kills: Int, steps: Int, long: Bool, database: String?
    ) async throws -> CrashFigures {
        let temporary = try TemporaryDirectory(prefix: "crash-test")
        defer { temporary.remove() }
        let directory = temporary.path
        let children = CrashChildren()
        // The child processes are waited for on a thread of their own, not on the test's task; when the bound
        // passes, the child is killed, which ends the thread.
        let result: Result<CrashFigures, any Error> = try await bounded(
            "the crash runs", within: .seconds(long ? 7_200 : 900)
        ) {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    Thread {
                        continuation.resume(
                            returning: Result {
                                try Self.crashRun(
                                    seed: seed, kills: kills, steps: steps, directory: directory, database: database,
                                    children: children)
                            })
                    }.start()
                }
            } onCancel: {
                children.stop()
            }
        }
        return try result.get()
    }
}
