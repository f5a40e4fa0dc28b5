import Testing

@testable import ReceiptKit
