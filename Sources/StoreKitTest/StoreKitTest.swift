// `import StoreKitTest` on Linux: `SKTestSession` and its types (OpenStoreKitTest) under Apple's module name, with the
// simulated store a test can give a session of its own (StoreSimulator).
@_exported public import OpenStoreKitTest
@_exported public import StoreSimulator
