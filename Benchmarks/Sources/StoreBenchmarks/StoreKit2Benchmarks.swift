import Dispatch
import Foundation
import OpenStoreKit2
import ReceiptKit
import StoreModels
import StoreSimulator
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension BenchmarkSuite {
    /// `sk2.purchase`: StoreKit 2's purchase path end to end, beside one signature and one warm verification of the
    /// purchase's payload, `queue.pipeline` and `jws.sign` in the same run.
    mutating func addStoreKit2Benchmarks() {
        addChild("sk2.purchase.profile", StoreKit2Profile.child)
        let count = options.quick ? 100 : 2_000
        let pipelineCount = options.quick ? 1_000 : 20_000
        let signCount = options.quick ? 5 : 2_000
        add(
            Benchmark(
                name: "sk2.purchase",
                unit: "purchases/s",
                about: """
                    Consumable purchases through StoreKit 2 on one in-memory store on a manual lane, one at a time: \
                    Product.purchase() -> the store signs the transaction (JWS, ES256) -> VerificationResult \
                    .payloadValue (ReceiptKit verifies it) -> Transaction.finish(). Baseline: what a purchase must \
                    cost at the least, one JWSSigner.sign(payloadJSON:) and one warm JWSVerifier.verify of the \
                    payload the store signs for such a purchase. Further baselines: queue.pipeline's figure \
                    (StoreKit 1, no signing) and jws.sign's figure (JWSSigner alone).
                    """,
                target: 0.5,
                body: .comparison(
                    figure: Workload("StoreKit 2 purchase, verified, finished", items: count) {
                        let run = StoreKit2PurchaseRun()
                        return { run.run(count) }
                    },
                    baseline: Workload(
                        "jws.sign + jws.verify.warm of the purchase's payload", role: .baseline, items: signCount
                    ) {
                        let floor = SignAndVerifyBaseline()
                        return { floor.run(signCount) }
                    },
                    others: [
                        Workload(
                            "queue.pipeline: StoreKit 1, one purchase at a time", role: .baseline,
                            items: pipelineCount
                        ) {
                            let pipeline = QueuePipeline()
                            return { pipeline.runOneAtATime(pipelineCount) }
                        },
                        Workload("jws.sign: JWSSigner.sign(payloadJSON:)", role: .baseline, items: signCount) {
                            let signer = JWSSigner()
                            let payload = (try? JWSBenchmarks.Fixture().payloadJSON) ?? []
                            return {
                                successes(signCount) {
                                    guard let jws = try? signer.sign(payloadJSON: payload) else { return false }
                                    blackHole(jws)
                                    return true
                                }
                            }
                        },
                    ]
                )
            )
        )
    }
}

/// The least a signed purchase costs: the store's signature of the payload it signs for a consumable purchase, as
/// JSON already encoded (`JWSSigner.sign(payloadJSON:)`), then one verification of that JWS by a verifier that has
/// seen the chain (`jws.verify.warm`), with the options StoreKit 2 verifies the store's JWS with.
final class SignAndVerifyBaseline: Sendable {
    let signer: JWSSigner
    let verifier: JWSVerifier?
    let payloadJSON: [UInt8]
    let options: JWSVerificationOptions

    init() {
        let store = SimulatedStore(lane: .manual)
        signer = store.jwsSigner
        options = JWSVerificationOptions(
            bundleIdentifier: store.app.bundleIdentifier, environment: store.jwsEnvironment)
        let jws = (try? store.buyProduct("com.example.coins100")).flatMap { try? store.signedTransaction($0.id) }
        payloadJSON = jws.flatMap { try? CompactJWS($0).payloadJSON } ?? []
        let root = store.jwsSigner.identity.certificates.last ?? X509Certificate.openStoreKitJWSTestRoot
        verifier = try? JWSVerifier(trustedRoots: [root])
        if let jws { _ = try? verifier?.verify(jws, options: options) }
    }

    /// Signs and verifies `count` times; returns how many verified.
    func run(_ count: Int) -> Int {
        guard let verifier else { return 0 }
        return successes(count) {
            guard let jws = try? signer.sign(payloadJSON: payloadJSON),
                let verified = try? verifier.verify(jws, options: options)
            else { return false }
            blackHole(verified.payloadJSON.count)
            return true
        }
    }
}

/// One side of `sk2.purchase` alone, for a profiler: `openstorekit-bench --child sk2.purchase.profile WHICH COUNT`
/// runs COUNT purchases (`purchase`) or COUNT signatures and verifications (`baseline`), after a warm-up of at most
/// 100, and prints the process's CPU time and the wall time per item. Under `valgrind --tool=callgrind` or
/// `perf record` it shows where one side spends, without the other side or the runner in the profile.
enum StoreKit2Profile {
    static func child(_ arguments: [String]) throws -> [String: Double] {
        guard arguments.count == 2, arguments[0] == "purchase" || arguments[0] == "baseline",
            let count = Int(arguments[1]), count > 0
        else {
            throw BenchmarkError("sk2.purchase.profile needs purchase|baseline COUNT, got \(arguments)")
        }
        let body: (Int) -> Int
        if arguments[0] == "purchase" {
            let run = StoreKit2PurchaseRun()
            body = run.run
        } else {
            let floor = SignAndVerifyBaseline()
            body = floor.run
        }
        _ = body(min(100, count))
        let (cpuBefore, wallBefore) = (processCPUSeconds(), Date())
        let done = body(count)
        let (cpu, wall) = (processCPUSeconds() - cpuBefore, Date().timeIntervalSince(wallBefore))
        guard done == count else { throw BenchmarkError("\(arguments[0]) completed \(done) of \(count) items") }
        return [
            "items": Double(done), "cpuMicrosecondsPerItem": cpu * 1e6 / Double(done),
            "wallMicrosecondsPerItem": wall * 1e6 / Double(done),
        ]
    }

    /// The CPU time the process has used, every thread's, in seconds.
    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// One store and one StoreKit 2 client, reused across samples; each run buys `count` consumables one at a time.
final class StoreKit2PurchaseRun: @unchecked Sendable {
    // @unchecked: `product` is set once in init and only read after; runs do not overlap.
    let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
    private var product: Product?

    init() {
        product = wait { [store] in
            await StoreKitEnvironment.withStore(store) {
                try? await Product.products(for: ["com.example.coins100"]).first
            }
        }
    }

    /// Buys, verifies and finishes `count` consumables; returns how many were verified purchases.
    func run(_ count: Int) -> Int {
        guard let product else { return 0 }
        return wait { [store] in
            await StoreKitEnvironment.withStore(store) {
                var done = 0
                for _ in 0..<count {
                    guard case .success(let result)? = try? await product.purchase(),
                        let transaction = try? result.payloadValue
                    else { continue }
                    await transaction.finish()
                    done += 1
                }
                return done
            }
        }
    }

    /// Runs async work to its end from synchronous code (the runner's timed bodies are synchronous).
    private func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        // `Product.purchase` is @MainActor, as Apple's: the main thread (the runner's) keeps its run loop turning
        // until the work is done, instead of blocking.
        let box = ResultBox<T>()
        let done = Atomic<Bool>(false)
        Task {
            box.value = await work()
            done.store(true, ordering: .releasing)
        }
        while !done.load(ordering: .acquiring) {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
        }
        return box.value!
    }
}

/// Carries a value out of a task (written once, before the semaphore is signalled, and read after).
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
