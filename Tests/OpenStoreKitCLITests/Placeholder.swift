// Tests for OpenStoreKitCLI live in this folder.
