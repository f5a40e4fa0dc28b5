import Foundation
import OpenStoreKit
import PaywallEvents
import Purchases
import Testing

@Suite("JSON forms of events")
struct EventJSONTests {
    static let product = PaywallProduct(ExampleProduct())
    static let profile = Profile(
        accessLevels: ["premium": AccessLevel(id: "premium", isActive: true, expiresAt: exampleExpiry)],
        subscriptions: [
            SubscriptionStatus(vendorProductId: "premium_monthly", isActive: true, expiresAt: exampleExpiry)
        ]
    )

    /// The value of JSON text, to compare shapes regardless of spacing.
    func value(_ text: String) throws -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    @Test("A product, exactly as the specification shows it")
    func product() throws {
        let spec = """
            {"vendorProductId": "premium_monthly", "localizedTitle": "Premium Monthly",
             "localizedDescription": "Premium subscription for 1 month",
             "localizedPrice": "$9.99", "price": 9.99, "currencyCode": "USD"}
            """
        #expect(
            Self.product.jsonString
                == #"{"vendorProductId":"premium_monthly","localizedTitle":"Premium Monthly","#
                + #""localizedDescription":"Premium subscription for 1 month","localizedPrice":"$9.99","price":9.99,"#
                + #""currencyCode":"USD"}"#)
        #expect(try value(Self.product.jsonString) == value(spec))
    }

    @Test("A profile, exactly as the specification shows it, and as the purchase module's own form")
    func profile() throws {
        let spec = """
            {"accessLevels": {"premium": {"id": "premium", "isActive": true,
                                          "expiresAt": "2024-02-15T10:30:00Z"}},
             "subscriptions": [{"vendorProductId": "premium_monthly", "isActive": true,
                                "expiresAt": "2024-02-15T10:30:00Z"}]}
            """
        let result = PurchaseResult.success(profile: Self.profile)
        #expect(
            result.jsonString
                == #"{"type":"success","profile":{"accessLevels":{"premium":{"id":"premium","isActive":true,"#
                + #""expiresAt":"2024-02-15T10:30:00Z"}},"subscriptions":[{"vendorProductId":"premium_monthly","#
                + #""isActive":true,"expiresAt":"2024-02-15T10:30:00Z"}]}}"#)
        #expect(try value(result.jsonString)["profile"] == value(spec))
        #expect(try value(result.jsonString)["profile"] == value(Self.profile.jsonString))
    }

    @Test("Purchase results: success, cancelled, pending")
    func results() {
        #expect(PurchaseResult.cancelled.jsonString == #"{"type":"cancelled"}"#)
        #expect(PurchaseResult.pending.jsonString == #"{"type":"pending"}"#)
        #expect(
            PurchaseResult.success(profile: .empty).jsonString
                == #"{"type":"success","profile":{"accessLevels":{},"subscriptions":[]}}"#)
    }

    @Test("Errors: code name, message and details with the underlying error")
    func errors() throws {
        let underlying = PurchasesError(.store, storeCode: .paymentNotAllowed, "payments are off")
        let error = PaywallEventsError(.purchaseFailed, "the purchase failed", underlying: underlying)
        #expect(
            error.jsonString
                == #"{"code":"purchase_failed","message":"the purchase failed","details":{"underlyingError":"#
                + #""PurchasesError 3 (SKError 4): payments are off"}}"#)
        #expect(
            PaywallEventsError(.renderingFailed, "no fonts").jsonString
                == #"{"code":"rendering_failed","message":"no fonts","details":{}}"#)
        let specCodes: [PaywallEventsError.Code] = [
            .purchaseFailed, .webPaymentFailed, .restoreFailed, .productsLoadingFailed, .renderingFailed,
        ]
        #expect(
            specCodes.map(\.name) == [
                "purchase_failed", "web_payment_failed", "restore_failed", "products_loading_failed",
                "rendering_failed",
            ])
        #expect(PaywallEventsError.Code.scriptError.rawValue == 4105)
        for code in PaywallEventsError.Code.all { #expect(PaywallEventsError.Code(name: code.name) == code) }
        #expect(PaywallEventsError.Code(name: "4105") == .scriptError)
        #expect(Set(PaywallEventsError.Code.all.map(\.rawValue)).count == PaywallEventsError.Code.all.count)
    }

    @Test("Every callback encodes with its name first and its payload in the specification's shapes")
    func events() throws {
        let product = Self.product
        let error = PaywallEventsError(.restoreFailed, "offline")
        let events: [(PaywallEvent, String)] = [
            (.didAppear, #"{"event":"didAppear"}"#),
            (.didDisappear, #"{"event":"didDisappear"}"#),
            (.didPerformAction(.close), #"{"event":"didPerformAction","action":{"type":"close"}}"#),
            (
                .didPerformAction(.openURL(URL(string: "https://example.com/terms")!)),
                #"{"event":"didPerformAction","action":{"type":"open_url","url":"https://example.com/terms"}}"#
            ),
            (
                .didPerformAction(.custom(id: "allowNotifications")),
                #"{"event":"didPerformAction","action":{"type":"custom","id":"allowNotifications"}}"#
            ),
            (.didSelectProduct(product), #"{"event":"didSelectProduct","product":\#(product.jsonString)}"#),
            (.didStartPurchase(product), #"{"event":"didStartPurchase","product":\#(product.jsonString)}"#),
            (
                .didFinishPurchase(product, .pending),
                #"{"event":"didFinishPurchase","product":\#(product.jsonString),"purchaseResult":{"type":"pending"}}"#
            ),
            (
                .didFailPurchase(product, error),
                #"{"event":"didFailPurchase","product":\#(product.jsonString),"error":\#(error.jsonString)}"#
            ),
            (.didStartRestore, #"{"event":"didStartRestore"}"#),
            (
                .didFinishRestore(.empty),
                #"{"event":"didFinishRestore","profile":{"accessLevels":{},"subscriptions":[]}}"#
            ),
            (.didFailRestore(error), #"{"event":"didFailRestore","error":\#(error.jsonString)}"#),
            (.didReceiveError(error), #"{"event":"didReceiveError","error":\#(error.jsonString)}"#),
            (.didFailLoadingProducts(error), #"{"event":"didFailLoadingProducts","error":\#(error.jsonString)}"#),
            (.didPartiallyLoadProducts(["a", "b"]), #"{"event":"didPartiallyLoadProducts","failedIds":["a","b"]}"#),
            (
                .didFinishWebPaymentNavigation(nil, nil),
                #"{"event":"didFinishWebPaymentNavigation","product":null,"error":null}"#
            ),
            (
                .didReceiveAnalyticEvent(
                    name: "flow_screen_showed", params: ["screen_index": 0, "screen_id": "intro"]),
                #"{"event":"didReceiveAnalyticEvent","name":"flow_screen_showed","params":{"screen_id":"intro","screen_index":0}}"#
            ),
            (.didFailRendering(error), #"{"event":"didFailRendering","error":\#(error.jsonString)}"#),
            (
                .shouldContinueWebPaymentNavigation(product),
                #"{"event":"shouldContinueWebPaymentNavigation","product":\#(product.jsonString)}"#
            ),
            (
                .didFailWebPaymentNavigation(product, error),
                #"{"event":"didFailWebPaymentNavigation","product":\#(product.jsonString),"error":\#(error.jsonString)}"#
            ),
        ]
        for (event, expected) in events {
            #expect(event.jsonString == expected)
            #expect(try value(event.jsonString)["event"]?.stringValue == event.name)
        }
        var covered: [String] = []
        for (event, _) in events where covered.last != event.name { covered.append(event.name) }
        #expect(covered == PaywallEvent.names, "every callback is covered, in declaration order")
    }

    @Test("Free-form values print with sorted keys, and escape what JSON needs")
    func values() throws {
        let value: JSONValue = ["b": [1, 2.5, true, nil], "a": "quote \" backslash \\ newline \n tab \t bell \u{7}"]
        #expect(
            value.jsonString == #"{"a":"quote \" backslash \\ newline \n tab \t bell \u0007","b":[1,2.5,true,null]}"#)
        #expect(try JSONValue(parsing: Data(value.jsonString.utf8)) == value)
    }
}
