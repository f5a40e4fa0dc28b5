// `import StoreKit` on Linux: StoreKit 1 (OpenStoreKit) and StoreKit 2 (OpenStoreKit2) under Apple's module name, so
// that a file written for iOS compiles unchanged, module-qualified names such as `StoreKit.Transaction` included. As on
// Apple's platforms, importing StoreKit imports Foundation too (`Date`, `Data`, `UUID`, `Decimal`, `NSObject`,
// `JSONEncoder`, `LocalizedError`): iOS files that import only StoreKit use them (docs/decisions.md).
@_exported public import Foundation
@_exported public import OpenStoreKit
@_exported public import OpenStoreKit2
