internal import COpenSSL

/// Reads and clears OpenSSL's thread-local error queue.
enum OpenSSLErrorQueue {
    /// Every queued error as text, oldest first, and an empty queue afterwards.
    static func drain() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.joined(separator: "; ")
    }

    /// An ``ReceiptError/Code/openSSLFailure`` naming the call that failed and OpenSSL's errors.
    static func failure(_ call: String) -> ReceiptError {
        let queue = drain()
        return ReceiptError(.openSSLFailure, queue.isEmpty ? "\(call) failed" : "\(call) failed: \(queue)")
    }
}
