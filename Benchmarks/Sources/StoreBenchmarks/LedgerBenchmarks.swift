internal import CSQLiteRaw
import Foundation
import Ledger
import StoreModels
import StoreSimulator

extension BenchmarkSuite {
    /// `ledger.durable` (a commit per change), `ledger.durable.group` (group commit), `ledger.durable.group.normal`
    /// (group commit without fsync: the CPU cost) and `ledger.durable.scaling` (memory and cost up to 10^6 durable
    /// purchases).
    mutating func addLedgerBenchmarks() {
        addDurablePerChange()
        addDurableGroup()
        addDurableScaling()
        addLedgerOpenBenchmarks()
    }

    /// Purchases per commit in the group-commit workloads: 100 purchases, 300 changes.
    fileprivate static let purchasesPerGroup = 100

    private mutating func addDurablePerChange() {
        let count = options.quick ? 3 : 60
        add(
            Benchmark(
                name: "ledger.durable",
                unit: "transactions/s",
                about: """
                    Durable consumable purchases through a SimulatedStore on a state file (submit, processPayment, \
                    finish: three changes), each change committed (synchronous=FULL: an fsync) before it is applied, \
                    the default. Baseline: raw SQLite inserting the same three rows (the journal's own bytes) into \
                    a table of the same schema, each in its own BEGIN IMMEDIATE ... COMMIT, synchronous=FULL, WAL.
                    """,
                target: 0.5,
                body: .comparison(
                    figure: Workload("durable store, a commit per change", items: count) {
                        let store = DurablePurchases(commit: .everyChange)
                        return { store.run(count) }
                    },
                    baseline: Workload("raw SQLite, 3 rows, a commit per row", role: .baseline, items: count) {
                        let raw = RawSQLiteLog(rows: DurablePurchases.journalRows())
                        return { raw.run(count, rowsPerCommit: 1) }
                    },
                    others: []
                )
            )
        )
    }

    private mutating func addDurableGroup() {
        let count = options.quick ? 200 : 20_000
        let group = Self.purchasesPerGroup
        add(
            Benchmark(
                name: "ledger.durable.group",
                unit: "transactions/s",
                about: """
                    The same durable purchases with group commit (StoreDurability.Commit.group(every: 300)) and \
                    a listening device: the app adds \(group) payments and finishes the \(group) it heard purchased \
                    in the run before, then runs the lane, which commits once and tells the listener (\(group) \
                    purchases per commit), synchronous=FULL. Baseline: raw SQLite inserting the same rows, \
                    \(3 * group) per transaction.
                    """,
                target: 0.5,
                body: .comparison(
                    figure: Workload("durable store, group commit", items: count) {
                        let store = DurablePurchases(commit: .group(every: 3 * group))
                        return { store.runBatched(count, batch: group) }
                    },
                    baseline: Workload(
                        "raw SQLite, \(3 * group) rows per commit", role: .baseline, items: count
                    ) {
                        let raw = RawSQLiteLog(rows: DurablePurchases.journalRows())
                        return { raw.run(count, rowsPerCommit: 3 * group) }
                    },
                    others: []
                )
            )
        )
        add(
            Benchmark(
                name: "ledger.durable.group.normal",
                unit: "transactions/s",
                about: """
                    ledger.durable.group with synchronous=NORMAL on both sides: commits reach the operating system \
                    but are not flushed to the disk (they survive kill -9, not a power loss), so what is left is the \
                    CPU cost of journaling. A variant makes the same purchases on an in-memory store.
                    """,
                target: nil,
                body: .comparison(
                    figure: Workload("durable store, group commit, synchronous=NORMAL", items: count) {
                        let store = DurablePurchases(
                            commit: .group(every: 3 * group), ledger: LedgerOptions(synchronous: .normal))
                        return { store.runBatched(count, batch: group) }
                    },
                    baseline: Workload(
                        "raw SQLite, \(3 * group) rows per commit, synchronous=NORMAL", role: .baseline, items: count
                    ) {
                        let raw = RawSQLiteLog(rows: DurablePurchases.journalRows(), synchronous: "NORMAL")
                        return { raw.run(count, rowsPerCommit: 3 * group) }
                    },
                    others: [
                        Workload("in-memory store (no journal), same purchases", items: count) {
                            let store = DurablePurchases(inMemory: ())
                            return { store.runBatched(count, batch: group) }
                        }
                    ]
                )
            )
        )
    }

    private mutating func addDurableScaling() {
        let options = self.options
        addChild("ledger.durable.scaling", LedgerDurableScaling.child)
        add(
            Benchmark(
                name: "ledger.durable.scaling",
                unit: "transactions/s",
                about: """
                    Durable purchases with group commit at 10^4, 10^5 and 10^6, each size in a fresh process, \
                    retention .receiptOnly and a snapshot every 400,000 changes: cost per transaction and peak \
                    resident memory must stay flat. Also the time to reopen the file. Baseline: raw SQLite inserts \
                    of the same rows, 300 per commit, at the same sizes in the same processes.
                    """,
                target: nil,
                body: .custom { context in try LedgerDurableScaling.run(context, options: options) }
            )
        )
    }
}

/// Consumable purchases on a durable store, through a device connection with a listener: submit, the store's
/// decision on the lane, finish.
private final class DurablePurchases {
    private let directory: String?
    private let store: SimulatedStore
    private let request = PaymentRequest(productID: "com.example.coins100")
    private let listener = PurchaseListener()
    private lazy var device = store.connect(deviceID: "bench", frontEnd: "bench", listener: listener)

    /// A durable store on a new file in a directory of its own, removed when the workload is dropped.
    init(
        commit: StoreDurability.Commit, ledger: LedgerOptions = LedgerOptions(), compactEvery: Int? = nil
    ) {
        let directory = FileManager.default.temporaryDirectory.path + "/openstorekit-bench-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        let durability = StoreDurability(commit: commit, ledger: ledger, compactEvery: compactEvery)
        do {
            store = try SimulatedStore(
                statePath: directory + "/state.sqlite", durability: durability, lane: .manual,
                retention: .receiptOnly)
        } catch {
            fatalError("cannot open a state file in \(directory): \(error)")
        }
    }

    /// The same purchases on an in-memory store.
    init(inMemory: Void) {
        directory = nil
        store = SimulatedStore(lane: .manual, retention: .receiptOnly)
    }

    deinit {
        try? store.close()
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Makes `count` purchases and commits; returns the number finished.
    func run(_ count: Int) -> Int {
        var finished = 0
        for _ in 0..<count {
            let id = device.submit(request)
            store.runUntilIdle()
            _ = listener.takePurchased()
            device.finish(id)
            store.runUntilIdle()
            if device.unfinishedTransaction(id) == nil { finished += 1 }
        }
        do {
            try store.flush()
        } catch {
            return 0
        }
        return finished
    }

    /// Makes `count` purchases in batches, as an app with a listener that finishes what it heard purchased when it
    /// adds its next payments: each run of the lane finishes the batch before and decides the next one, which is
    /// `3 * batch` changes and one commit. Returns the number of purchases the listener heard purchased and removed.
    func runBatched(_ count: Int, batch: Int) -> Int {
        let removedBefore = listener.removed
        var left = count
        var heard = 0
        repeat {
            let purchased = listener.takePurchased()
            heard += purchased.count
            for id in purchased { device.finish(id) }
            let now = min(batch, left)
            for _ in 0..<now { device.submit(request) }
            left -= now
            store.runUntilIdle()
        } while left > 0 || listener.hasPurchased
        do {
            try store.flush()
        } catch {
            return 0
        }
        let removed = listener.removed - removedBefore
        return heard == count && removed == count ? removed : 0
    }

    /// Closes the store and opens its file again; returns the seconds that took.
    func reopen() throws -> Double {
        guard let path = store.statePath else { return 0 }
        try store.close()
        let start = DispatchTime.now().uptimeNanoseconds
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        blackHole(reopened.allTransactions().count)
        try reopened.close()
        return seconds
    }

    /// The journal entries of one purchase, as the store writes them: the rows the baselines insert.
    static func journalRows() -> [[UInt8]] {
        let workload = DurablePurchases(commit: .everyChange)
        func entries() -> [[UInt8]] {
            let read = try? workload.store.ledger?.read { txn in try txn.logEntries(in: "openstorekit.store") }
            return (read ?? []).map(\.payload)
        }
        // The first purchase also connects the device; the second writes only what every later one does.
        _ = workload.run(1)
        let before = entries().count
        _ = workload.run(1)
        let rows = Array(entries().dropFirst(before))
        precondition(!rows.isEmpty, "a purchase writes journal entries (submit, decide, finish); found none")
        return rows
    }
}

/// A listener that hears nothing.
final class SilentListener: DeviceListener {
    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {}
}

/// The baseline: raw SQLite inserting rows into a table of the Ledger log's schema, in WAL mode with
/// `synchronous=FULL`, committing every `rowsPerCommit` rows. Owns its connection and statements.
private final class RawSQLiteLog {
    private let directory: String
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    private let rows: [[UInt8]]

    init(rows: [[UInt8]], synchronous: String = "FULL") {
        self.rows = rows
        directory = FileManager.default.temporaryDirectory.path + "/openstorekit-bench-raw-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard sqlite3_open(directory + "/raw.sqlite", &database) == SQLITE_OK else {
            fatalError("sqlite3_open failed in \(directory)")
        }
        for sql in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = \(synchronous)",
            "CREATE TABLE log (sequence INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, payload BLOB NOT NULL)",
            "CREATE INDEX log_by_name ON log (name)",
        ] {
            guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else { fatalError("\(sql) failed") }
        }
        insert = prepare("INSERT INTO log (name, payload) VALUES (?1, ?2)")
        begin = prepare("BEGIN IMMEDIATE")
        commit = prepare("COMMIT")
    }

    deinit {
        for statement in [insert, begin, commit] { sqlite3_finalize(statement) }
        sqlite3_close_v2(database)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func prepare(_ sql: String) -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else { fatalError("\(sql)") }
        return statement
    }

    private func step(_ statement: OpaquePointer?) -> Bool {
        let rc = sqlite3_step(statement)
        sqlite3_reset(statement)
        return rc == SQLITE_DONE
    }

    /// Inserts the rows of `count` purchases, committing every `rowsPerCommit` rows; returns the purchases written.
    func run(_ count: Int, rowsPerCommit: Int) -> Int {
        var pending = 0
        var written = 0
        var ok = true
        let name = "openstorekit.store"
        for _ in 0..<count {
            for row in rows {
                if pending == 0 { ok = step(begin) && ok }
                row.withUnsafeBytes { bytes in
                    sqlite3_bind_text(insert, 1, name, -1, CSQLiteRaw_static())
                    sqlite3_bind_blob(insert, 2, bytes.baseAddress, Int32(bytes.count), CSQLiteRaw_static())
                    ok = step(insert) && ok
                    sqlite3_clear_bindings(insert)
                }
                pending += 1
                if pending == rowsPerCommit {
                    ok = step(commit) && ok
                    pending = 0
                }
            }
            written += 1
        }
        if pending > 0 { ok = step(commit) && ok }
        return ok ? written : 0
    }
}

/// `ledger.durable.scaling`: one child process per size.
private enum LedgerDurableScaling {
    static func sizes(_ options: RunOptions) -> [Int] {
        options.quick ? [1_000, 10_000] : [10_000, 100_000, 1_000_000]
    }

    static func run(_ context: BenchmarkContext, options: RunOptions) throws -> BenchmarkReport {
        var points: [BenchmarkReport.Point] = []
        for size in sizes(options) {
            log("  ledger.durable.scaling: \(size) durable purchases, fresh process")
            let figures = try context.child("ledger.durable.scaling", [String(size)])
            points.append(BenchmarkReport.Point(size: size, values: figures))
            if let nanoseconds = figures["nsPerTransaction"], let peak = figures["peakRSSMiB"] {
                log("    \(Format.significant(nanoseconds)) ns/transaction, peak RSS \(Format.significant(peak)) MiB")
            }
        }
        let rates = points.map { 1e9 / ($0.values["nsPerTransaction"] ?? .infinity) }
        let baselineRates = points.map { 1e9 / ($0.values["baselineNsPerTransaction"] ?? .infinity) }
        var report = BenchmarkReport(
            name: "ledger.durable.scaling",
            unit: "transactions/s",
            about: "durable purchases with group commit at 10^4 ... 10^6, each in a fresh process",
            figure: Summary(rates),
            baseline: "raw SQLite inserts of the same rows, 300 per commit, at the same sizes",
            baselineFigure: Summary(baselineRates),
            target: nil
        )
        func extra(_ name: String, _ unit: String, _ value: Double) -> BenchmarkReport.Figure {
            BenchmarkReport.Figure(
                name: name, role: "extra", unit: unit, median: value, min: value, max: value, ratio: nil)
        }
        if let first = points.first, let last = points.last, let low = first.values["peakRSSMiB"],
            let high = last.values["peakRSSMiB"]
        {
            report.figures.append(extra("peak RSS at \(first.size) transactions", "MiB", low))
            report.figures.append(extra("peak RSS at \(last.size) transactions", "MiB", high))
            report.figures.append(extra("peak RSS growth, \(first.size) to \(last.size)", "MiB", high - low))
        }
        for point in points {
            if let seconds = point.values["reopenSeconds"] {
                report.figures.append(extra("reopen after \(point.size) transactions", "s", seconds))
            }
        }
        report.points = points
        report.notes.append("sizes: " + points.map { String($0.size) }.joined(separator: ", "))
        return report
    }

    /// The child: the durable purchases and the baseline at one size (each once, after a warm-up), the peak RSS,
    /// and the time to reopen the file.
    static func child(_ arguments: [String]) throws -> [String: Double] {
        guard arguments.count == 1, let size = Int(arguments[0]), size > 0 else {
            throw BenchmarkError("ledger.durable.scaling child needs SIZE, got \(arguments)")
        }
        let group = BenchmarkSuite.purchasesPerGroup
        let rows = DurablePurchases.journalRows()
        _ = try Runner.time(
            Workload("warm-up", items: 1_000) {
                let store = DurablePurchases(commit: .group(every: 3 * group))
                return { store.runBatched(1_000, batch: group) }
            })
        let startKiB = ProcessMemory.residentKiB ?? 0
        let store = DurablePurchases(commit: .group(every: 3 * group), compactEvery: 400_000)
        let rate = try Runner.time(Workload("durable", items: size) { { store.runBatched(size, batch: group) } })
        let peakKiB = ProcessMemory.peakResidentKiB ?? 0
        let reopenSeconds = try store.reopen()
        let baseline = try Runner.time(
            Workload("raw", role: .baseline, items: size) {
                let raw = RawSQLiteLog(rows: rows)
                return { raw.run(size, rowsPerCommit: 3 * group) }
            })
        return [
            "size": Double(size),
            "nsPerTransaction": 1e9 / rate,
            "transactionsPerSecond": rate,
            "baselineNsPerTransaction": 1e9 / baseline,
            "ratio": rate / baseline,
            "startRSSMiB": Double(startKiB) / 1024,
            "peakRSSMiB": Double(peakKiB) / 1024,
            "reopenSeconds": reopenSeconds,
        ]
    }
}
