import Foundation

#if Server
    import ReceiptKit
    import StoreModels
    import StoreServer
    import StoreSimulator
    import Synchronization
    #if canImport(Glibc)
        import Glibc
    #endif
#endif

extension BenchmarkSuite {
    /// `server.requests`: the App Store Server API over loopback beside an empty handler of the same HTTP library.
    /// Only in a build with the trait Server; without it the benchmark is not registered.
    mutating func addServerBenchmarks() {
        #if Server
            let items = options.quick ? 50 : 2_000
            add(
                Benchmark(
                    name: "server.requests",
                    unit: "requests/s",
                    about: """
                        Get Transaction Info (GET /inApps/v1/transactions/{id}: the bearer token checked, the \
                        store's signed transaction, JSON) over one keep-alive loopback connection, one request at a \
                        time, the token reused as Apple allows. Baseline: the same client against the same server's \
                        HTTP layer (libmicrohttpd) answering 404 to a path outside its APIs, which no handler works on.
                        """,
                    target: 0.5,
                    body: .comparison(
                        figure: Workload("Get Transaction Info", items: items) {
                            ServerBench.transactionInfo(items)
                        },
                        baseline: Workload("404 outside the APIs, same server", role: .baseline, items: items) {
                            ServerBench.notFound(items)
                        },
                        others: [
                            Workload("Get Transaction Info, --rate-limits apple", items: items) {
                                ServerBench.transactionInfo(items, rateLimits: .apple)
                            }
                        ])
                )
            )
            let options = self.options
            add(
                Benchmark(
                    name: "server.notifications",
                    unit: "notifications/s",
                    about: """
                        Server Notifications V2 signed and delivered: a store of N monthly subscribers (N accounts, \
                        bought at the same instant) moves its clock to their renewal date through \
                        StoreServer.perform, and the clock is stopped when the sender is idle with every DID_RENEW \
                        POSTed to a local receiver (the same library alone, answering 200) and counted \
                        there. Baseline: jws.sign alone (JWSSigner.sign(payloadJSON:) of a transaction payload, \
                        JWS/s); each notification signs three JWS (payload, transaction, renewal info), so the ratio \
                        cannot pass 1/3.
                        """,
                    target: nil,
                    body: .custom { _ in try ServerBench.notifications(options) }
                )
            )
        #endif
    }
}

#if Server
    /// The workloads of `server.requests`.
    enum ServerBench {
        static func transactionInfo(_ items: Int, rateLimits: RateLimits? = nil) -> () -> Int {
            let store = SimulatedStore(lane: .manual)
            guard let key = try? ES256Key.generate(),
                let server = try? StoreServer(
                    store: store,
                    configuration: StoreServerConfiguration(
                        apiKeys: [APIKey(keyID: "BENCH", key: key)], issuerID: "issuer", rateLimits: rateLimits)),
                let record = try? server.perform(.buyProduct(productID: "com.example.pro")).transaction,
                let token = token(key: key, now: store.now)
            else { return { 0 } }
            let request = Array(
                "GET /inApps/v1/transactions/\(record.id) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
                    .utf8)
            return run(request, port: server.port, items: items, keep: server)
        }

        static func notFound(_ items: Int) -> () -> Int {
            guard
                let server = try? StoreServer(
                    store: SimulatedStore(lane: .manual), configuration: StoreServerConfiguration())
            else { return { 0 } }
            let request = Array("GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            return run(request, port: server.port, items: items, status: 404, keep: server)
        }

        /// `server.notifications`: the renewals of `subscribers` subscriptions in one clock move, beside `jws.sign`.
        static func notifications(_ options: RunOptions) throws -> BenchmarkReport {
            let subscribers = options.quick ? 5 : 500
            let fixture = try JWSBenchmarks.Fixture()
            let payload = fixture.payloadJSON
            let signer = JWSSigner()
            let signs = options.quick ? 15 : 1_500
            let changes = Durations()
            let comparison = PairedComparison(
                name: "server.notifications",
                unit: "notifications/s",
                about: "renewals signed and delivered to a loopback receiver, against jws.sign alone (JWS/s)",
                target: nil,
                figure: Workload("DID_RENEW signed and delivered, \(subscribers) in one clock move", items: subscribers)
                {
                    renewals(subscribers, changes: changes)
                },
                baseline: Workload("jws.sign: JWSSigner.sign(payloadJSON:), JWS/s", role: .baseline, items: signs) {
                    {
                        successes(signs) {
                            guard let jws = try? signer.sign(payloadJSON: payload) else { return false }
                            blackHole(jws)
                            return true
                        }
                    }
                },
                rows: [
                    .baseline(
                        Workload(
                            "three jws.sign per notification (the ceiling), notifications/s", role: .baseline,
                            items: signs / 3
                        ) {
                            {
                                successes(signs / 3) {
                                    for _ in 0..<3 {
                                        guard let jws = try? signer.sign(payloadJSON: payload) else { return false }
                                        blackHole(jws)
                                    }
                                    return true
                                }
                            }
                        })
                ]
            )
            var report = try comparison.run(options)
            report.figures.append(
                PairedComparison.extra(
                    "of which the move, its renewals and their signing, until perform returns (then delivery)",
                    unit: "µs per notification",
                    Summary(changes.values.suffix(options.samples).map { $0 / Double(subscribers) })))
            report.notes.append(
                "each notification signs three JWS (the notification's payload, its signedTransactionInfo and "
                    + "signedRenewalInfo): the ratio to jws.sign cannot pass 0.33; the row \"three jws.sign\" gives "
                    + "headline / that ceiling")
            return report
        }

        /// A store of `subscribers` monthly subscribers behind a server that notifies a local receiver; the body moves
        /// the clock to their renewal and returns how many notifications the receiver got once the sender is idle.
        private static func renewals(_ subscribers: Int, changes: Durations) -> () -> Int {
            let store = SimulatedStore(lane: .manual)
            guard let receiver = LoopbackHTTPServer() else { return { 0 } }
            for index in 0..<subscribers {
                // Bought before the server starts: the set-up sends nothing, the timed move sends every renewal.
                guard (try? store.buyProduct("com.example.premium.monthly", account: "bench-\(index)")) != nil else {
                    return { 0 }
                }
            }
            store.runUntilIdle()
            guard
                let server = try? StoreServer(
                    store: store,
                    configuration: StoreServerConfiguration(
                        notificationsURL: URL(string: "http://127.0.0.1:\(receiver.port)/notifications"))),
                idle(server.notifications, within: 60),
                let renewal = store.nextSubscriptionEventDate
            else { return { 0 } }
            return {
                withExtendedLifetime(receiver) {
                    let before = receiver.posts
                    let start = Stopwatch.now()
                    guard
                        (try? server.perform(.advance(to: renewal))) != nil
                    else { return 0 }
                    changes.add(Double(Stopwatch.now() - start) / 1_000)
                    guard idle(server.notifications, within: 120) else { return 0 }
                    return receiver.posts - before
                }
            }
        }

        /// Waits, at most `seconds`, until the sender has attempted every notification it made.
        private static func idle(_ sender: NotificationSender, within seconds: Double) -> Bool {
            let done = DispatchSemaphore(value: 0)
            Task {
                await sender.idle()
                done.signal()
            }
            return done.wait(timeout: .now() + seconds) == .success
        }

        /// A token as Apple's libraries make it (five minutes), on the store's clock.
        private static func token(key: ES256Key, now: Date) -> String? {
            func segment(_ text: String) -> String {
                Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            let exp = Int(now.timeIntervalSince1970) + 300
            let input =
                segment(#"{"alg":"ES256","kid":"BENCH","typ":"JWT"}"#) + "."
                + segment(#"{"aud":"appstoreconnect-v1","bid":"com.example.app","exp":\#(exp),"iss":"issuer"}"#)
            guard let signature = try? key.sign(Array(input.utf8)) else { return nil }
            return input + "."
                + Data(signature).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }

        /// A body that sends `items` requests one after the other on one connection and counts the answers with
        /// `status`.
        static func run(
            _ request: [UInt8], port: UInt16, items: Int, status: Int = 200, keep: AnyObject
        ) -> () -> Int {
            let connection = Connection(port: port)
            return {
                withExtendedLifetime(keep) {
                    var ok = 0
                    for _ in 0..<items where connection?.exchange(request) == status { ok += 1 }
                    return ok
                }
            }
        }
    }

    /// Durations noted by a workload across its rounds, in microseconds.
    final class Durations: Sendable {
        private let noted = Mutex<[Double]>([])

        /// Notes one.
        func add(_ microseconds: Double) { noted.withLock { $0.append(microseconds) } }

        /// Every one noted, in order.
        var values: [Double] { noted.withLock { $0 } }
    }

    /// A keep-alive HTTP/1.1 client on a blocking socket: writes a request, reads one response (by Content-Length).
    final class Connection {
        private let descriptor: Int32
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        private var received: [UInt8] = []

        init?(port: UInt16) {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return nil }
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            // No close here: returning nil from a whole object runs deinit, which closes the descriptor once.
            guard connected == 0 else { return nil }
        }

        deinit { if descriptor >= 0 { close(descriptor) } }

        /// Sends the request and returns the response's status (0 on a broken connection).
        ///
        /// It reads the response's bytes as they come, finds the end of the head once, reads the status and
        /// Content-Length from the head's bytes and waits for the whole body: a client that costs little beside the
        /// server, so that the time measured is the server's.
        func exchange(_ request: [UInt8]) -> Int {
            let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == request.count else { return 0 }
            received.removeAll(keepingCapacity: true)
            var head: (end: Int, status: Int, length: Int)?
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return 0 }
                let scanned = received.count
                received.append(contentsOf: buffer[0..<count])
                if head == nil, let end = Self.headerEnd(received, from: max(0, scanned - 3)) {
                    head = Self.parse(received[0..<end])
                    head?.end = end
                }
                if let head, received.count >= head.end + 4 + head.length { return head.status }
            }
        }

        /// The index of the first `\r\n\r\n` at or after `start`.
        private static func headerEnd(_ bytes: [UInt8], from start: Int) -> Int? {
            guard bytes.count >= 4, start <= bytes.count - 4 else { return nil }
            for index in start...(bytes.count - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }

        /// The status (the digits after the first space) and the Content-Length (0 without one) of a response's head.
        private static func parse(_ head: ArraySlice<UInt8>) -> (end: Int, status: Int, length: Int) {
            func number(_ bytes: ArraySlice<UInt8>) -> Int {
                var value = 0
                for byte in bytes.drop(while: { $0 == 32 || $0 == 9 }) {
                    guard byte >= 48, byte <= 57 else { break }
                    value = value * 10 + Int(byte - 48)
                }
                return value
            }
            let status = head.firstIndex(of: 32).map { number(head[($0 + 1)...]) } ?? 0
            let name = Array("content-length:".utf8)
            var length = 0
            for line in head.split(separator: 10) where line.count > name.count {
                // ASCII letters lowercased by their 0x20 bit; the name's other bytes (`-`, `:`) have it set already.
                if zip(line, name).allSatisfy({ $0 | 0x20 == $1 }) {
                    length = number(line.dropFirst(name.count))
                }
            }
            return (0, status, length)
        }
    }
#endif
