// `import StoreKit` on Linux: StoreKit 1 (OpenStoreKit) and StoreKit 2 (OpenStoreKit2) under Apple's module name, so
// that a file written for iOS compiles unchanged, module-qualified names such as `StoreKit.Transaction` included.
@_exported public import OpenStoreKit
@_exported public import OpenStoreKit2
