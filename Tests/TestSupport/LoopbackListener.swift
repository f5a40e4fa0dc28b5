import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 at a port the system picks, for the tests' raw-socket receivers, or a
/// port bound without listening, which refuses connections.
public enum LoopbackListener {
    /// Opens one. The caller owns the descriptor and closes it.
    ///
    /// - Parameter listening: `false` binds the port without listening: a connection to it is refused, and
    ///   while the descriptor is open no other test's server can take the port.
    /// - Returns: The descriptor and its port.
    /// - Throws: `POSIXError` when the socket cannot be bound or listen.
    public static func open(listening: Bool = true) throws -> (descriptor: Int32, port: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, !listening || listen(listener, 4) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }
}
