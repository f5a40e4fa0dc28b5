#if Server
    #if canImport(Glibc)
        import Glibc
    #endif

    /// The write end of the pipe SIGINT and SIGTERM are told through: a byte for each signal. Set once, before the
    /// handler is installed; read by the handler, which may do nothing but write(2).
    nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
    /// The read end of that pipe.
    nonisolated(unsafe) private var signalPipeReadEnd: Int32 = -1

    /// SIGINT and SIGTERM caught for a server: ``install()`` before the server's URL is printed, so that a signal sent
    /// the moment it shows is kept, then ``wait()`` until one arrived.
    ///
    /// The handler writes a byte to a pipe, whichever thread the signal lands on (a signal ignored while a thread waits
    /// for it elsewhere could be lost; a signal left to its default action ends the process without committing).
    enum TerminationSignal {
        /// Catches SIGINT and SIGTERM from now on. A signal caught before, and not waited for, is forgotten.
        static func install() {
            if signalPipeReadEnd < 0 {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { return }
                signalPipeReadEnd = ends[0]
                signalPipeWriteEnd = ends[1]
                _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            }
            // Forget signals caught before: the pipe is read without blocking until it is empty.
            let flags = fcntl(signalPipeReadEnd, F_GETFL)
            _ = fcntl(signalPipeReadEnd, F_SETFL, flags | O_NONBLOCK)
            var byte: UInt8 = 0
            while read(signalPipeReadEnd, &byte, 1) == 1 {}
            _ = fcntl(signalPipeReadEnd, F_SETFL, flags)
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            for number in [SIGINT, SIGTERM] {
                signal(number) { _ in
                    var byte: UInt8 = 1
                    _ = write(signalPipeWriteEnd, &byte, 1)
                }
                sigaddset(&unblocked, number)
            }
            // A process may start with the signals blocked (inherited from the one that started it): this thread takes
            // them, so a signal pending already is handled now.
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        }

        /// Blocks until SIGINT or SIGTERM arrived since ``install()`` (at once if one already did).
        static func wait() {
            var byte: UInt8 = 0
            while read(signalPipeReadEnd, &byte, 1) != 1 {
                guard errno == EINTR else { return }
            }
        }
    }
#endif
