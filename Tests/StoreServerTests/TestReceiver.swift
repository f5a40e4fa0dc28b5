#if Server
    import Foundation
    @testable import StoreServer
    import Synchronization

    /// A backend's notification endpoint for the tests: records each POSTed body and answers with the status the test
    /// chooses (200 by default).
    final class TestReceiver: Sendable {
        private final class Box: Sendable {
            let state = Mutex<(bodies: [[UInt8]], status: Int, headers: [HTTPHeader])>(([], 200, []))
        }

        private let server: HTTPServer
        private let box: Box

        init() throws {
            let box = Box()
            server = try HTTPServer(configuration: HTTPServerConfiguration()) { request in
                let (status, headers) = box.state.withLock { state -> (Int, [HTTPHeader]) in
                    state.bodies.append(request.body)
                    return (state.status, state.headers)
                }
                return HTTPResponse(status: status, headers: headers)
            }
            self.box = box
        }

        deinit { server.stop() }

        // swift-format-ignore: NeverForceUnwrap
        var url: URL { URL(string: "http://127.0.0.1:\(server.port)/notifications")! }

        /// The status the next requests get.
        func answer(_ status: Int, headers: [HTTPHeader] = []) {
            box.state.withLock { state in
                state.status = status
                state.headers = headers
            }
        }

        /// The `signedPayload` of every body received, in order.
        var signedPayloads: [String] {
            box.state.withLock { $0.bodies }.compactMap { body in
                (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["signedPayload"] as? String
            }
        }
    }
#endif
