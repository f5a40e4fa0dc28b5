#if Server
    import Foundation
    @testable import StoreServer
    import Synchronization

    /// A developer's Get Retention Message endpoint for the tests: keeps the `signedPayload` of each real-time request
    /// and answers 200 with the body the test chooses.
    final class RetentionEndpoint: Sendable {
        private final class Box: Sendable {
            let state = Mutex<(payloads: [String], answer: [UInt8])>(([], []))
        }

        private let server: HTTPServer
        private let box: Box

        init(answer: String) throws {
            let box = Box()
            box.state.withLock { $0.answer = Array(answer.utf8) }
            server = try HTTPServer(configuration: HTTPServerConfiguration()) { request in
                let answer = box.state.withLock { state -> [UInt8] in
                    let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
                    state.payloads.append(object?["signedPayload"] as? String ?? "")
                    return state.answer
                }
                return .json(200, answer)
            }
            self.box = box
        }

        deinit { server.stop() }

        // swift-format-ignore: NeverForceUnwrap
        var url: URL { URL(string: "http://127.0.0.1:\(server.port)/retention")! }

        /// The body the next requests get.
        func answer(_ body: String) {
            box.state.withLock { $0.answer = Array(body.utf8) }
        }

        /// The `signedPayload` of every request received, in order.
        var signedPayloads: [String] { box.state.withLock { $0.payloads } }
    }
#endif
