import Foundation
import StoreModels

extension StoreConfiguration {
    /// The built-in demo catalog: a consumable, a non-consumable, a non-renewing subscription and a subscription group
    /// with a monthly (one-week free trial, a promotional offer) and a yearly plan.
    public static let demo = StoreConfiguration(catalog: StoreCatalog(products: demoProducts), sourceName: "demo")

    private static let demoProducts: [ProductDefinition] = {
        func english(_ title: String, _ description: String) -> [ProductLocalization] {
            [ProductLocalization(locale: "en_US", displayName: title, description: description)]
        }
        let monthly = SubscriptionPeriod(value: 1, unit: .month)
        return [
            ProductDefinition(
                id: "com.example.coins100",
                referenceName: "100 coins",
                type: .consumable,
                price: Decimal(string: "0.99") ?? 0,
                localizations: english("100 Coins", "A pile of coins to spend in the game.")
            ),
            ProductDefinition(
                id: "com.example.pro",
                referenceName: "Pro unlock",
                type: .nonConsumable,
                price: Decimal(string: "9.99") ?? 0,
                isFamilyShareable: true,
                localizations: english("Pro", "Unlocks every pro feature, for good.")
            ),
            ProductDefinition(
                id: "com.example.season",
                referenceName: "Season pass",
                type: .nonRenewingSubscription,
                price: Decimal(string: "4.99") ?? 0,
                localizations: english("Season Pass", "Three months of seasonal content.")
            ),
            ProductDefinition(
                id: "com.example.premium.monthly",
                referenceName: "Premium monthly",
                type: .autoRenewableSubscription,
                price: Decimal(string: "4.99") ?? 0,
                localizations: english("Premium Monthly", "Premium, renewed every month."),
                subscription: SubscriptionInfo(
                    groupID: "premium",
                    groupLevel: 2,
                    period: monthly,
                    introductoryOffer: ProductOffer(
                        identifier: nil,
                        kind: .introductory,
                        paymentMode: .freeTrial,
                        price: 0,
                        period: SubscriptionPeriod(value: 1, unit: .week),
                        numberOfPeriods: 1
                    ),
                    promotionalOffers: [
                        ProductOffer(
                            identifier: "com.example.premium.monthly.winback",
                            kind: .promotional,
                            paymentMode: .payAsYouGo,
                            price: Decimal(string: "1.99") ?? 0,
                            period: monthly,
                            numberOfPeriods: 3
                        )
                    ]
                )
            ),
            ProductDefinition(
                id: "com.example.premium.yearly",
                referenceName: "Premium yearly",
                type: .autoRenewableSubscription,
                price: Decimal(string: "39.99") ?? 0,
                localizations: english("Premium Yearly", "Premium, renewed every year."),
                subscription: SubscriptionInfo(
                    groupID: "premium",
                    groupLevel: 1,
                    period: SubscriptionPeriod(value: 1, unit: .year)
                )
            ),
        ]
    }()
}
