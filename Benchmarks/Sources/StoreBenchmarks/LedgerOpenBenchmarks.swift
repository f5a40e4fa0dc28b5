internal import CSQLiteRaw
import Foundation
import Ledger
import StoreModels
import StoreSimulator

extension BenchmarkSuite {
    /// `ledger.open`: opening a state file of 10^3, 10^4, 10^5 and 10^6 transactions, against a raw SQLite read of
    /// the same rows, each size in fresh processes.
    mutating func addLedgerOpenBenchmarks() {
        let options = self.options
        addChild("ledger.open.make", LedgerOpen.make)
        addChild("ledger.open", LedgerOpen.child)
        add(
            Benchmark(
                name: "ledger.open",
                unit: "transactions/s",
                about: """
                    Opening a state file (SimulatedStore(statePath:)) that holds N consumable purchases, all kept \
                    (retention .all: N records) and compacted into its tables, in a fresh process (N = 10^3, 10^4, \
                    10^5, 10^6): with the default options (StoreDurability()), with the whole-file check \
                    (checksIntegrityOnOpen) and without it. Baseline: raw SQLite in the same process opening the \
                    same file and reading the same rows (SELECT value of every record row, each blob's bytes read). \
                    Also the peak resident memory of the process after opening, the first read of the account's \
                    whole history after opening, and the same store kept with retention .receiptOnly (the records \
                    dropped once finished).
                    """,
                target: 0.5,
                body: .custom { context in try LedgerOpen.run(context, options: options) }
            )
        )
    }
}

/// `ledger.open`: one process makes each file, another opens it.
private enum LedgerOpen {
    static func sizes(_ options: RunOptions) -> [Int] {
        options.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000]
    }

    static func run(_ context: BenchmarkContext, options: RunOptions) throws -> BenchmarkReport {
        let directory = FileManager.default.temporaryDirectory.path + "/openstorekit-bench-open-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var points: [BenchmarkReport.Point] = []
        for size in sizes(options) {
            var values: [String: Double] = ["size": Double(size)]
            for retention in ["all", "receiptOnly"] {
                let path = directory + "/\(retention)-\(size).sqlite"
                log("  ledger.open: making a file of \(size) transactions (\(retention)), fresh process")
                let made = try context.child("ledger.open.make", [String(size), retention, path])
                log("  ledger.open: opening it, fresh process")
                let opened = try context.child("ledger.open", [path, retention])
                for (key, value) in made { values[retention + "." + key] = value }
                for (key, value) in opened { values[retention + "." + key] = value }
            }
            if let open = values["all.openSeconds"], let raw = values["all.rawSeconds"],
                let peak = values["all.peakRSSMiB"]
            {
                log(
                    "    open \(Format.significant(open)) s (whole-file check "
                        + "\(Format.significant(values["all.openCheckedSeconds"] ?? .nan)) s), raw SELECT "
                        + "\(Format.significant(raw)) s, peak RSS \(Format.significant(peak)) MiB; first history read "
                        + "\(Format.significant(values["all.historySeconds"] ?? .nan)) s")
            }
            points.append(BenchmarkReport.Point(size: size, values: values))
        }
        func rates(_ key: String) -> [Double] {
            points.map { Double($0.size) / ($0.values[key] ?? .infinity) }
        }
        var report = BenchmarkReport(
            name: "ledger.open",
            unit: "transactions/s",
            about: "opening a state file of 10^3 ... 10^6 transactions, each in a fresh process",
            figure: Summary(rates("all.openSeconds")),
            baseline: "raw SQLite: open the file, SELECT the same rows, read each blob",
            baselineFigure: Summary(rates("all.rawSeconds")),
            target: 0.5
        )
        func extra(_ name: String, _ unit: String, _ value: Double?) {
            guard let value else { return }
            report.figures.append(
                BenchmarkReport.Figure(
                    name: name, role: "extra", unit: unit, median: value, min: value, max: value, ratio: nil))
        }
        for point in points {
            let values = point.values
            extra("open \(point.size) transactions", "s", values["all.openSeconds"])
            extra("open \(point.size) transactions, whole-file check", "s", values["all.openCheckedSeconds"])
            extra("open \(point.size) transactions, no integrity check", "s", values["all.openUncheckedSeconds"])
            extra("raw SELECT of the same \(point.size) rows *(baseline)*", "s", values["all.rawSeconds"])
            if let open = values["all.openSeconds"], let raw = values["all.rawSeconds"] {
                extra("ratio at \(point.size) (raw time / open time)", "×", raw / open)
            }
            if let open = values["all.openUncheckedSeconds"], let raw = values["all.rawSeconds"] {
                extra("ratio at \(point.size) without the integrity check", "×", raw / open)
            }
            extra("peak RSS after opening \(point.size) transactions", "MiB", values["all.peakRSSMiB"])
            extra("first read of the history after opening \(point.size)", "s", values["all.historySeconds"])
            extra("peak RSS after that read, \(point.size)", "MiB", values["all.historyPeakRSSMiB"])
            extra("file size at \(point.size) transactions", "MiB", values["all.fileMiB"])
            extra("open \(point.size) transactions, .receiptOnly", "s", values["receiptOnly.openSeconds"])
            extra("peak RSS after opening \(point.size), .receiptOnly", "MiB", values["receiptOnly.peakRSSMiB"])
        }
        report.points = points
        report.notes.append("sizes: " + points.map { String($0.size) }.joined(separator: ", "))
        return report
    }

    /// The maker: `size` consumable purchases on a new state file (group commit, compacted as it goes), then a last
    /// compaction, so that the file holds them in its tables.
    static func make(_ arguments: [String]) throws -> [String: Double] {
        guard arguments.count == 3, let size = Int(arguments[0]), size > 0 else {
            throw BenchmarkError("ledger.open.make needs SIZE RETENTION PATH, got \(arguments)")
        }
        let retention: HistoryRetention = arguments[1] == "all" ? .all : .receiptOnly
        let durability = StoreDurability(
            commit: .group(every: 3_000), ledger: LedgerOptions(synchronous: .normal))
        let store = try SimulatedStore(
            statePath: arguments[2], durability: durability, lane: .manual, retention: retention)
        let request = PaymentRequest(productID: "com.example.coins100")
        let listener = SilentListener()
        let device = store.connect(deviceID: "bench", frontEnd: "bench", listener: listener)
        for _ in 0..<size {
            let id = device.submit(request)
            store.runUntilIdle()
            device.finish(id)
            store.runUntilIdle()
        }
        withExtendedLifetime(listener) {}
        try store.compact()
        let records = store.allTransactions().count
        try store.close()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: arguments[2])[.size] as? Int) ?? 0
        return ["records": Double(records), "fileMiB": Double(bytes) / 1_048_576]
    }

    /// The opener: the raw read and the store's open, alternated (the first of each discarded as a warm-up), then
    /// the peak resident memory.
    static func child(_ arguments: [String]) throws -> [String: Double] {
        guard arguments.count == 2 else { throw BenchmarkError("ledger.open needs PATH RETENTION, got \(arguments)") }
        let path = arguments[0]
        var raw: [Double] = []
        var open: [Double] = []
        var checked: [Double] = []
        var unchecked: [Double] = []
        var records = 0
        // The default opening first, alternated with the baseline, so that the peak memory taken after it is its own
        // (the whole-file check reads every record); then the two other openings.
        for round in 0..<4 {
            let rawSeconds = try time { records = try RawSelect.read(path) }
            let openSeconds = try time { blackHole(try opened(path, durability: StoreDurability())) }
            guard round > 0 else { continue }
            raw.append(rawSeconds)
            open.append(openSeconds)
        }
        let peakKiB = ProcessMemory.peakResidentKiB ?? 0
        for round in 0..<4 {
            let checkedSeconds = try time { blackHole(try opened(path, durability: checks(true))) }
            let uncheckedSeconds = try time { blackHole(try opened(path, durability: checks(false))) }
            guard round > 0 else { continue }
            checked.append(checkedSeconds)
            unchecked.append(uncheckedSeconds)
        }
        // Then what opening no longer reads: the account's whole history, once.
        var history = 0
        let historySeconds = try time {
            let store = try SimulatedStore(statePath: path, lane: .manual)
            history = store.transactions(of: SimulatedStore.defaultAccount).count
            try store.close()
        }
        blackHole(history)
        return [
            "openSeconds": Summary(open).median, "openCheckedSeconds": Summary(checked).median,
            "openUncheckedSeconds": Summary(unchecked).median,
            "rawSeconds": Summary(raw).median, "rawRows": Double(records),
            "peakRSSMiB": Double(peakKiB) / 1024, "historySeconds": historySeconds,
            "historyPeakRSSMiB": Double(ProcessMemory.peakResidentKiB ?? 0) / 1024,
        ]
    }

    /// Durability with Ledger's integrity check on opening (the whole-file check) or without it.
    private static func checks(_ on: Bool) -> StoreDurability {
        StoreDurability(ledger: LedgerOptions(checksIntegrityOnOpen: on))
    }

    /// Opens the store and closes it; returns whether it holds its first record.
    private static func opened(_ path: String, durability: StoreDurability) throws -> Bool {
        let store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        let found = store.transaction(1_000_000_000_000_001) != nil
        try store.close()
        return found
    }

    private static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// The baseline: raw SQLite opening the file read-only and reading every record row's value, touching its bytes.
private enum RawSelect {
    static func read(_ path: String) throws -> Int {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close_v2(database)
            throw BenchmarkError("sqlite3_open_v2 failed on \(path)")
        }
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        let sql = "SELECT value FROM records NOT INDEXED WHERE collection = 'openstorekit.store.records'"
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkError("cannot prepare \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        var rows = 0
        var checksum: UInt64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            let count = Int(sqlite3_column_bytes(statement, 0))
            if let bytes = sqlite3_column_blob(statement, 0) {
                let buffer = UnsafeRawBufferPointer(start: bytes, count: count)
                for byte in buffer { checksum &+= UInt64(byte) }
            }
            rows += 1
        }
        blackHole(checksum)
        return rows
    }
}
