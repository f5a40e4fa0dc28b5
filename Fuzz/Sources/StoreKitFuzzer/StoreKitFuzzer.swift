import Foundation
import StoreSimulator

/// One input: the `.storekit` loader, from bytes. A file either loads or is refused with an error that explains
/// itself; a loaded catalog answers lookups of each of its products. Violations are reported as crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do throws(StoreSimulatorError) {
        let configuration = try StoreConfiguration(data: bytes, sourceName: "fuzz.storekit")
        for product in configuration.catalog.products {
            precondition(configuration.catalog.product(product.id) != nil, "every product can be looked up")
        }
    } catch {
        precondition(!error.detail.isEmpty, "every error explains itself")
    }
    return 0
}
