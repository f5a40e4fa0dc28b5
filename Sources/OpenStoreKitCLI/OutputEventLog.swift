import FeedRunner
import Foundation

/// An event log written to an ``OutputFileWriter`` through a buffer.
final class OutputEventLog: EventLogSink {
    private let writer: OutputFileWriter
    private var buffer = Data()

    /// Writes to `writer`; call ``flush()`` before committing it.
    init(writer: OutputFileWriter) {
        self.writer = writer
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends a line.
    func append(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered.
    func flush() {
        guard !buffer.isEmpty else { return }
        writer.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
