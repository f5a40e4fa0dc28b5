// Tests for OpenStoreKit live in this folder.
