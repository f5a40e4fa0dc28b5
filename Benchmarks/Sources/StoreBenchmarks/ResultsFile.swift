import Foundation

/// The JSON file `--json FILE` writes: the machine and every benchmark's report.
struct ResultsFile: Codable {
    /// Where and how the run happened.
    var machine: MachineInfo
    /// Whether this was a `--quick` smoke run (tiny sizes: the figures mean nothing).
    var quick: Bool
    /// The process's peak resident memory at the end of the run, in KiB.
    var peakResidentKiB: Int?
    /// The reports, in the order the benchmarks ran.
    var benchmarks: [BenchmarkReport]

    /// Reads a file written by ``write(to:)``.
    init(contentsOf path: String) throws {
        self = try JSONDecoder().decode(ResultsFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Creates the results of a run.
    init(machine: MachineInfo, quick: Bool, peakResidentKiB: Int?, benchmarks: [BenchmarkReport]) {
        self.machine = machine
        self.quick = quick
        self.peakResidentKiB = peakResidentKiB
        self.benchmarks = benchmarks
    }

    /// Writes the file, pretty-printed with sorted keys so that diffs between runs stay readable.
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
