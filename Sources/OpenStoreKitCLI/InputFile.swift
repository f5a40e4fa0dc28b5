import Foundation

/// The files a command reads, checked before it does anything: every command reports a missing one the same way,
/// `FILE: no such file`, as a usage error (exit 2).
enum InputFile {
    /// Throws `PATH: no such file` (with the option that named it, if any) unless something is at `path`.
    static func mustExist(_ path: String, option: String? = nil) throws(UsageError) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        throw UsageError("\(path): no such file" + (option.map { " (\($0))" } ?? ""))
    }

    /// Throws for the first of `paths` that does not exist, as ``mustExist(_:option:)``.
    static func mustExist(_ paths: [String], option: String? = nil) throws(UsageError) {
        for path in paths { try mustExist(path, option: option) }
    }
}
