#if Server
    import Dispatch
    import Foundation
    @testable import StoreServer
    import Synchronization
    import Testing

    @Suite struct HTTPServerTests {
        /// A server that echoes what it received as JSON.
        private static func echoServer(maximumBodySize: Int = 1024) throws -> HTTPServer {
            try HTTPServer(configuration: HTTPServerConfiguration(maximumBodySize: maximumBodySize)) { request in
                let object: [String: Any] = [
                    "method": request.method, "path": request.path, "query": request.query,
                    "auth": request.header("Authorization") ?? "",
                    "body": String(decoding: request.body, as: UTF8.self),
                    "loopback": request.isFromLoopback,
                ]
                let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
                return .json(200, [UInt8](data))
            }
        }

        @Test func servesRequestsOnAPortItPicked() async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            #expect(server.port != 0)
            let client = TestHTTPClient(port: server.port)
            let response = try await client.send(
                "POST", "/inApps/v1/notifications/history?paginationToken=a%20b&x=1&x=2",
                headers: ["Authorization": "Bearer t"], body: Array(#"{"a":1}"#.utf8))
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            let object = try TestHTTPClient.object(response.body)
            #expect(object["method"] as? String == "POST")
            #expect(object["path"] as? String == "/inApps/v1/notifications/history")
            #expect((object["query"] as? [String: [String]])?["x"] == ["1", "2"])
            #expect((object["query"] as? [String: [String]])?["paginationToken"] == ["a b"])
            #expect(object["auth"] as? String == "Bearer t")
            #expect(object["body"] as? String == #"{"a":1}"#)
            #expect(object["loopback"] as? Bool == true)
        }

        @Test func refusesANonLoopbackAddressUnlessAllowed() throws {
            #expect(throws: StoreServerError(.nonLoopbackAddress, "")) {
                try HTTPServer(configuration: HTTPServerConfiguration(host: "0.0.0.0")) { _ in .text(200, "") }
            }
            #expect(throws: StoreServerError(.invalidAddress, "")) {
                try HTTPServer(configuration: HTTPServerConfiguration(host: "not-an-address", allowsNonLoopback: true))
                {
                    _ in .text(200, "")
                }
            }
            let server = try HTTPServer(
                configuration: HTTPServerConfiguration(host: "0.0.0.0", allowsNonLoopback: true)
            ) {
                _ in .text(200, "")
            }
            server.stop()
            #expect(!server.isRunning)
        }

        @Test func reportsAPortThatIsTaken() throws {
            let first = try Self.echoServer()
            defer { first.stop() }
            #expect(throws: StoreServerError(.cannotListen, "")) {
                try HTTPServer(configuration: HTTPServerConfiguration(port: first.port)) { _ in .text(200, "") }
            }
        }

        @Test func answersAnOversizedBodyWith413AndKeepsServing() async throws {
            let server = try Self.echoServer(maximumBodySize: 1024)
            defer { server.stop() }
            // Announced by Content-Length: refused before the body is read.
            let announced = try RawSocket(port: server.port)
            announced.send("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 100000000\r\n\r\n")
            let first = String(decoding: announced.readAll(), as: UTF8.self)
            #expect(first.hasPrefix("HTTP/1.1 413"))
            #expect(first.contains(#""errorCode":4000000"#))
            // Chunked, so the size shows only while reading: the excess is dropped, not kept.
            let chunked = try RawSocket(port: server.port)
            chunked.send("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "a", count: 4096)
            for _ in 0..<8 { chunked.send(String(4096, radix: 16) + "\r\n" + chunk + "\r\n") }
            chunked.send("0\r\n\r\n")
            #expect(String(decoding: chunked.readAll(), as: UTF8.self).hasPrefix("HTTP/1.1 413"))
            let client = TestHTTPClient(port: server.port)
            #expect(try await client.send("POST", "/x", body: Array(repeating: 65, count: 1024)).status == 200)
        }

        @Test func aChunkedBodyPastTheLimitIsAnswered413AtOnceWithoutWaitingForItsEnd() async throws {
            let server = try Self.echoServer(maximumBodySize: 1024)
            defer { server.stop() }
            // A chunk announced as 2^64 - 1 bytes: the answer comes once the body passes the limit, not at its end.
            let socket = try RawSocket(port: server.port)
            socket.send("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n")
            socket.send(String(repeating: "a", count: 4096))
            let answer = String(decoding: socket.readAll(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 413"))
            #expect(answer.contains(#""errorCode":4000000"#))
            let client = TestHTTPClient(port: server.port)
            #expect(try await client.send("POST", "/x", body: Array(repeating: 65, count: 1024)).status == 200)
        }

        @Test func ambiguousBodyLengthsAreRefused400() async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            func answer(_ head: String, _ body: String = "") throws -> String {
                let socket = try RawSocket(port: server.port)
                socket.send("POST /x HTTP/1.1\r\nHost: a\r\n\(head)\r\n\(body)")
                return String(decoding: socket.readAll(), as: UTF8.self)
            }
            // Two lengths that differ, or a length with chunked encoding: which one ends the body is ambiguous.
            let differing = try answer("Content-Length: 2\r\nContent-Length: 5\r\n", "abcde")
            #expect(differing.hasPrefix("HTTP/1.1 400"))
            #expect(differing.contains("Content-Length"))
            let both = try answer("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "5\r\nabcde\r\n0\r\n\r\n")
            #expect(both.hasPrefix("HTTP/1.1 400"))
            #expect(both.contains("Transfer-Encoding"))
            #expect(both.components(separatedBy: "HTTP/1.1 ").count == 2)
            // The same length twice is one length.
            #expect(try answer("Content-Length: 2\r\nContent-Length: 2\r\n", "ab").hasPrefix("HTTP/1.1 200"))
        }

        @Test func aSlowClientDoesNotHoldUpOthers() async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            var silent: [RawSocket] = []
            for _ in 0..<8 {
                let socket = try RawSocket(port: server.port)
                socket.send("GET /slow HTTP/1.1\r\nHost: a\r\n")  // headers never finished
                silent.append(socket)
            }
            let client = TestHTTPClient(port: server.port)
            for _ in 0..<20 {
                #expect(try await client.send("GET", "/fast").status == 200)
            }
            withExtendedLifetime(silent) {}
        }

        @Test func garbageIsAnsweredAndTheServerGoesOn() async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            let socket = try RawSocket(port: server.port)
            socket.send([0, 1, 2, 255, 13, 10, 13, 10] + Array(repeating: 0x41, count: 200) + [13, 10, 13, 10])
            let answer = String(decoding: socket.readAll(), as: UTF8.self)
            #expect(!answer.hasPrefix("HTTP/1.1 200"))
            let client = TestHTTPClient(port: server.port)
            #expect(try await client.send("GET", "/after").status == 200)
        }

        @Test func stopClosesTheListeningSocket() async throws {
            let server = try Self.echoServer()
            let port = server.port
            server.stop()
            server.stop()
            #expect(throws: (any Error).self) { try RawSocket(port: port) }
        }

        /// Sends raw bytes on a new connection and returns the status line of the answer ("" when none came).
        private static func statusLine(_ request: String, port: UInt16) throws -> String {
            let socket = try RawSocket(port: port)
            socket.send(request)
            let answer = String(decoding: socket.readAll(), as: UTF8.self)
            return answer.split(separator: "\r\n").first.map(String.init) ?? ""
        }

        @Test func everyRequestIsAnsweredWhateverItsTargetOrHeaders() async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            let port = server.port
            func answer(_ request: String) throws -> String { try Self.statusLine(request, port: port) }
            // 800 query parameters (20 KB): more than libmicrohttpd's memory for a connection holds.
            let many = (0..<800).map { "p\($0)=v\($0)" }.joined(separator: "&")
            #expect(try answer("GET /x?\(many) HTTP/1.1\r\nHost: a\r\n\r\n").hasPrefix("HTTP/1.1 414"))
            // Within the length, over the count.
            let short = Array(repeating: "a=1", count: 300).joined(separator: "&")
            #expect(try answer("GET /x?\(short) HTTP/1.1\r\nHost: a\r\n\r\n").hasPrefix("HTTP/1.1 414"))
            let long = String(repeating: "b", count: 9000)
            #expect(try answer("GET /\(long) HTTP/1.1\r\nHost: a\r\n\r\n").hasPrefix("HTTP/1.1 414"))
            let huge = String(repeating: "c", count: 200_000)
            #expect(try answer("GET /\(huge) HTTP/1.1\r\nHost: a\r\n\r\n").hasPrefix("HTTP/1.1 414"))
            // Any announced body over the limit, up to 2^64 - 1.
            for length in ["18446744073709551615", "99999999999999999999999", "1025"] {
                #expect(
                    try answer("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n")
                        .hasPrefix("HTTP/1.1 413"))
            }
            // A control character in the target, encoded or not, and a repeated Authorization header.
            for target in ["/inApps/v1/transactions/1%00", "/a%0ab", "/a%7F", "/x?k=%00"] {
                #expect(try answer("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n").hasPrefix("HTTP/1.1 400"))
            }
            #expect(
                try answer("GET /x HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n")
                    .hasPrefix("HTTP/1.1 400"))
            // What is within the limits is served.
            let fine = Array(repeating: "a=1", count: 200).joined(separator: "&")
            let client = TestHTTPClient(port: port)
            let served = try await client.send("GET", "/x%41?\(fine)")
            #expect(served.status == 200)
            #expect(try TestHTTPClient.object(served.body)["path"] as? String == "/xA")
        }

        @Test func aHandlerThatTakesLongHoldsUpNoOtherClientAndIsAnsweredPastTheIdleTimeout() async throws {
            let gate = DispatchSemaphore(value: 0)
            let finished = Mutex(0)
            let server = try HTTPServer(configuration: HTTPServerConfiguration(connectionTimeout: 1)) { request in
                guard request.path == "/slow" else { return .text(200, "fast") }
                _ = gate.wait(timeout: .now() + 30)
                // Longer than the idle timeout: the connection was busy, not idle.
                Thread.sleep(forTimeInterval: 1.5)
                finished.withLock { $0 += 1 }
                return .text(200, "slow")
            }
            defer { server.stop() }
            let port = server.port
            let slow = (0..<8).map { _ in
                Task {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread {
                            let line = try? Self.statusLine("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n", port: port)
                            continuation.resume(returning: line ?? "")
                        }
                    }
                }
            }
            // Other clients are answered while every slow handler still runs.
            let client = TestHTTPClient(port: port)
            for _ in 0..<8 {
                #expect(try await client.send("GET", "/fast").status == 200)
            }
            #expect(finished.withLock { $0 } == 0)
            for _ in slow { gate.signal() }
            for task in slow {
                #expect(await task.value == "HTTP/1.1 200 OK")
            }
        }
    }
#endif
