import Foundation

/// Runs a part of a benchmark in a fresh process of this same executable, for figures that are process-wide (peak
/// resident memory is a high-water mark that never goes down).
///
/// The child is `openstorekit-bench --child NAME ARGS...`; it prints one JSON object of numbers on standard output.
enum ChildProcess {
    /// Runs the child and returns the numbers it printed.
    static func run(_ name: String, _ arguments: [String]) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath)
        process.arguments = ["--child", name] + arguments
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw BenchmarkError("could not start \(executablePath) --child \(name): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchmarkError(
                "child \(name) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))"
            )
        }
        guard let figures = try? JSONDecoder().decode([String: Double].self, from: data) else {
            let text = String(decoding: data, as: UTF8.self)
            throw BenchmarkError("child \(name) printed something that is not a JSON object of numbers: \(text)")
        }
        return figures
    }

    /// Prints a child's figures as the one line of JSON its parent reads.
    static func reply(_ figures: [String: Double]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(figures)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// This executable, resolved through `/proc/self/exe` where there is one.
    private static var executablePath: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments[0]
    }
}
