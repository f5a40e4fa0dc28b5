import Foundation

/// Writes a progress line to standard error, so that standard output carries only the summary table.
func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
