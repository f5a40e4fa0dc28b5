#if Server
    import Foundation
    @testable import StoreServer
    import Testing

    /// Notifications to https receivers: OpenSSL's TLS, the certificate verified against the CAs trusted and the URL's
    /// host.
    @Suite struct NotificationTLSTests {
        /// One attempt of `client` to `url`, on a thread of its own (the client blocks).
        static func post(_ client: NotificationClient, to url: URL) async -> String? {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                Thread.detachNewThread {
                    continuation.resume(returning: client.post(#"{"signedPayload":"x"}"#, to: url) { false })
                }
            }
        }

        @Test func anHTTPSReceiverWhoseCertificateIsTrustedGetsTheNotification() async throws {
            let receiver = try TLSReceiver()
            let client = NotificationClient(timeout: 5, trustedCertificates: receiver.certificatePath)
            let url = try #require(URL(string: "https://localhost:\(receiver.port)/notifications"))
            #expect(await Self.post(client, to: url) == "SUCCESS")
            await receiver.finished()
        }

        @Test func aCertificateNoCATrustedIsATLSIssue() async throws {
            let receiver = try TLSReceiver()
            let client = NotificationClient(timeout: 5)  // the system's CAs only
            let url = try #require(URL(string: "https://localhost:\(receiver.port)/notifications"))
            #expect(await Self.post(client, to: url) == "TLS_ISSUE")
            await receiver.finished()
        }

        @Test func aCertificateForAnotherNameIsATLSIssue() async throws {
            let receiver = try TLSReceiver()  // for localhost, not 127.0.0.1
            let client = NotificationClient(timeout: 5, trustedCertificates: receiver.certificatePath)
            let url = try #require(URL(string: "https://127.0.0.1:\(receiver.port)/notifications"))
            #expect(await Self.post(client, to: url) == "TLS_ISSUE")
            await receiver.finished()
        }

        @Test func httpsToAReceiverWithoutTLSIsATLSIssue() async throws {
            let receiver = try TestReceiver()
            let client = NotificationClient(timeout: 5)
            var components = try #require(URLComponents(url: receiver.url, resolvingAgainstBaseURL: false))
            components.scheme = "https"
            #expect(await Self.post(client, to: try #require(components.url)) == "TLS_ISSUE")
            #expect(receiver.signedPayloads.isEmpty)
        }
    }
#endif
