import Foundation

/// The resident memory of this process, from `/proc/self/status` (Linux only).
enum ProcessMemory {
    /// The peak resident set size (`VmHWM`) in KiB: a high-water mark for the whole process, never lowered.
    static var peakResidentKiB: Int? { field("VmHWM") }

    /// The current resident set size (`VmRSS`) in KiB.
    static var residentKiB: Int? { field("VmRSS") }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }
        }
        return nil
    }
}
