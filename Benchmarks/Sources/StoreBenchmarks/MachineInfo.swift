import Foundation

/// The machine the figures were measured on.
struct MachineInfo: Codable {
    /// The CPU model, from `/proc/cpuinfo`.
    var cpu: String
    /// Online processors.
    var cores: Int
    /// Physical memory in GiB.
    var memoryGiB: Double
    /// The operating system, from `/etc/os-release`.
    var system: String
    /// When the run started (UTC, ISO 8601).
    var date: String
    /// `release` or `debug`.
    var build: String

    /// Reads the current machine.
    static func current() -> MachineInfo {
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        return MachineInfo(
            cpu: value(of: "model name", in: "/proc/cpuinfo", separator: ":") ?? "unknown",
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            system: value(of: "PRETTY_NAME", in: "/etc/os-release", separator: "=")?
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "unknown",
            date: ISO8601DateFormatter().string(from: Date()),
            build: build
        )
    }

    private static func value(of key: String, in path: String, separator: Character) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key else { continue }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
