"""Signs StoreKit offers with Apple's App Store Server Library for Python, for the Swift test that buys with them.

Usage: signed_offers_check.py OUT.json

Signs with the project's test subscription-offer key (Receipts/offers/test-offer-key.p8, key id
OPENSTOREKIT-TEST-OFFER-KEY), as a developer's server signs with its In-App Purchase key: a promotional offer with
PromotionalOfferV2SignatureCreator (with and without transactionId) and introductory offer eligibility with
IntroductoryOfferEligibilitySignatureCreator (allowed and withheld), all for com.example.premium.monthly of the demo
catalog, naming the app transaction id of the store's default account. Writes them, with the signing time, to OUT.json;
Tests/OpenStoreKit2Tests/AppleSignedOfferTests.swift reads it (OPENSTOREKIT_APPLE_SIGNED_OFFERS names the file) and
buys with each through StoreKit 2.
"""

import json
import os
import sys
import time

from appstoreserverlibrary.jws_signature_creator import (
    IntroductoryOfferEligibilitySignatureCreator,
    PromotionalOfferV2SignatureCreator,
)

KEY_ID = "OPENSTOREKIT-TEST-OFFER-KEY"
ISSUER = "57246542-96fe-1a63-e053-0824d011072a"
BUNDLE = "com.example.app"
PRODUCT = "com.example.premium.monthly"
OFFER = "com.example.premium.monthly.winback"


def app_transaction_id(account):
    """The store's app transaction id of an account (SignedPayloadMapping.appTransactionID): FNV-1a of its name."""
    value = 0xCBF29CE484222325
    for byte in account.encode():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return str(700_000_000_000_000_000 + value % 100_000_000_000_000_000)


def main():
    out = sys.argv[1]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "Receipts", "offers", "test-offer-key.p8"), "rb") as f:
        key = f.read()
    app_transaction = app_transaction_id("default")
    signed_at = int(time.time())
    promotional = PromotionalOfferV2SignatureCreator(key, KEY_ID, ISSUER, BUNDLE)
    eligibility = IntroductoryOfferEligibilitySignatureCreator(key, KEY_ID, ISSUER, BUNDLE)
    document = {
        "signedAt": signed_at,
        "appTransactionId": app_transaction,
        "productId": PRODUCT,
        "offerId": OFFER,
        "promotionalOffer": promotional.create_signature(PRODUCT, OFFER, app_transaction),
        "promotionalOfferWithoutTransaction": promotional.create_signature(PRODUCT, OFFER, None),
        "eligibilityAllowed": eligibility.create_signature(PRODUCT, True, app_transaction),
        "eligibilityWithheld": eligibility.create_signature(PRODUCT, False, app_transaction),
    }
    with open(out, "w") as f:
        json.dump(document, f, indent=2)
    print("signed 4 offer JWS with Apple's App Store Server Library into " + out)


if __name__ == "__main__":
    main()
