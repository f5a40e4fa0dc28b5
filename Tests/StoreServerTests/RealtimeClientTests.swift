#if Server
    import Foundation
    @testable import StoreServer
    import TestSupport
    import Testing

    /// How a real-time request goes: over http and https, to endpoints that answer, refuse, fail or never answer.
    @Suite struct RealtimeClientTests {
        static let body = Array(#"{"signedPayload":"x"}"#.utf8)

        /// One request of `client` to `url`, on a thread of its own (the client blocks).
        static func post(_ client: RealtimeClient, to url: URL) async -> RealtimeClient.Answer {
            await withCheckedContinuation { (continuation: CheckedContinuation<RealtimeClient.Answer, Never>) in
                Thread.detachNewThread { continuation.resume(returning: client.post(body, to: url)) }
            }
        }

        @Test func theAnswersStatusAndBodyAreRead() async throws {
            let endpoint = try RetentionEndpoint(answer: #"{"message":{}}"#)
            let answer = await Self.post(RealtimeClient(timeout: 5), to: endpoint.url)
            #expect(
                answer == RealtimeClient.Answer(result: "SUCCESS", status: 200, body: Array(#"{"message":{}}"#.utf8)))
            #expect(endpoint.signedPayloads == ["x"])
        }

        @Test func aFailingStatusARefusedConnectionAndAnUnknownSchemeFail() async throws {
            let receiver = try TestReceiver()
            receiver.answer(500)
            #expect(
                await Self.post(RealtimeClient(timeout: 5), to: receiver.url).result
                    == "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
            let (bound, port) = try LoopbackListener.open(listening: false)
            defer { close(bound) }
            let refused = try #require(URL(string: "http://127.0.0.1:\(port)/r"))
            #expect(await Self.post(RealtimeClient(timeout: 5), to: refused).result == "NO_RESPONSE")
            let ftp = try #require(URL(string: "ftp://127.0.0.1/r"))
            #expect(await Self.post(RealtimeClient(timeout: 5), to: ftp).result == "OTHER")
        }

        @Test func anHTTPSEndpointWhoseCertificateIsTrustedIsReached() async throws {
            let receiver = try TLSReceiver()
            let client = RealtimeClient(timeout: 5, trustedCertificates: receiver.certificatePath)
            let url = try #require(URL(string: "https://localhost:\(receiver.port)/retention"))
            #expect(await Self.post(client, to: url) == RealtimeClient.Answer(result: "SUCCESS", status: 200))
            await receiver.finished()
        }

        @Test func anHTTPSEndpointWhoseCertificateNoCATrustedIsATLSIssue() async throws {
            let receiver = try TLSReceiver()
            let url = try #require(URL(string: "https://localhost:\(receiver.port)/retention"))
            #expect(await Self.post(RealtimeClient(timeout: 5), to: url).result == "TLS_ISSUE")
            await receiver.finished()
        }
    }
#endif
