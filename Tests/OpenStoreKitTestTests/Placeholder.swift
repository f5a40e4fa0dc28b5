// Tests for OpenStoreKitTest live in this folder.
