// Tests for ReceiptKit live in this folder.
