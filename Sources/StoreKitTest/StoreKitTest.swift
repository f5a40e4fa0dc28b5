// `import StoreKitTest` on Linux: `SKTestSession` and its types (OpenStoreKitTest) under Apple's module name, with the
// simulated store a test can give a session of its own (StoreSimulator). Foundation comes with it, as on Apple's
// platforms.
@_exported public import Foundation
@_exported public import OpenStoreKitTest
@_exported public import StoreSimulator
