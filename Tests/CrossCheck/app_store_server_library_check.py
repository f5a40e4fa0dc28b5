"""Cross-check of `openstorekit serve` with Apple's App Store Server Library for Python.

Starts the server (the executable given as the first argument) with a fresh In-App Purchase key and a notification
receiver of its own, drives the store through the control API (a subscription bought, renewed, failing billing,
recovered, refunded, bought again, cancelled and expired; one-time purchases, one refunded prorated), calls every
endpoint of the App Store Server API with Apple's `AppStoreServerAPIClient` (Get Refund History V1, which it lacks,
with a raw request and its token), and verifies every JWS the server returned or sent with Apple's
`SignedDataVerifier`, trusting only the project's test root (Receipts/jws/root.pem), environment Sandbox. Then starts
a second server, `--rate-limits sandbox --delivery sandbox` with a catalog of billing plans and a receiver that always
fails: a request past an endpoint's limit is the library's RATE_LIMIT_EXCEEDED until the store's clock passes the
hour, each notification is attempted once, and a yearly subscription billed monthly is signed with its commitment.
Exits 0 when everything matched, 1 with the first mismatch otherwise.
"""

import http.server
import json
import os
import sys
import tempfile
import threading
import urllib.error
import urllib.request

from appstoreserverlibrary.api_client import APIError, APIException, GetTransactionHistoryVersion
from appstoreserverlibrary.models.BillingPlanType import BillingPlanType
from appstoreserverlibrary.models.RenewalBillingPlanType import RenewalBillingPlanType
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.models.AccountTenure import AccountTenure
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.PurchasePlatform import PurchasePlatform
from appstoreserverlibrary.models.PlayTime import PlayTime
from appstoreserverlibrary.models.RefundPreferenceV1 import RefundPreferenceV1
from appstoreserverlibrary.models.RevocationType import RevocationType
from appstoreserverlibrary.models.UserStatus import UserStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest

from crosscheck import (BUNDLE, CHECKS, ISSUER, Receiver, StoreClockClient, check, controller, new_api_key,
                        start_receiver, start_server, stop_server, test_root_verifier)

KEY_ID = "CROSSCHECK"
MONTHLY = "com.example.premium.monthly"
APP_ACCOUNT_TOKEN = "7e3fb20b-4cdb-47cc-936d-99d65de2f5a4"
ANNUAL = "com.example.plan.annual"
HOUR_MS = 3600 * 1000

# A yearly subscription offering two billing plans (an Xcode `.storekit` file, format 5.0): up front at 119.99, or
# 9.99 a month for a twelve-month commitment of 119.88.
PLANS_STOREKIT = json.dumps({
    "identifier": "BP000000", "nonRenewingSubscriptions": [], "products": [],
    "settings": {"_storefront": "USA", "_locale": "en_US"},
    "subscriptionGroups": [{
        "id": "BP000001", "localizations": [], "name": "Plans",
        "subscriptions": [{
            "adHocOffers": [], "codeOffers": [], "winbackOffers": [], "introductoryOffer": None,
            "billingPlans": [
                {"billingPlanType": "BILLED_UPFRONT", "commitmentDisplayPrice": "119.99", "displayPrice": "119.99",
                 "internalID": "BP000005", "isEnabled": True},
                {"billingPlanType": "MONTHLY", "commitmentDisplayPrice": "119.88", "displayPrice": "9.99",
                 "internalID": "BP000006", "isEnabled": True}],
            "displayPrice": "119.99", "familyShareable": False, "groupNumber": 1, "internalID": "BP000002",
            "localizations": [{"description": "Annual", "displayName": "Annual", "locale": "en_US"}],
            "productID": ANNUAL, "recurringSubscriptionPeriod": "P1Y", "referenceName": "Annual",
            "subscriptionGroupID": "BP000001", "type": "RecurringSubscription"}]}],
    "version": {"major": 5, "minor": 0}})


class FailingReceiver(http.server.BaseHTTPRequestHandler):
    """Counts the notifications sent to it and answers each with 500, so that a server would try them again."""

    attempts = 0

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        FailingReceiver.attempts += 1
        self.send_response(500)
        self.end_headers()

    def log_message(self, *args):
        pass


def start_failing_receiver():
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FailingReceiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d/notifications" % receiver.server_address[1]


def main():
    executable = sys.argv[1]
    work = tempfile.mkdtemp(prefix="openstorekit-crosscheck-")
    key_pem, key_file = new_api_key(work, KEY_ID)
    server, base = start_server(executable, KEY_ID, key_file, "--notifications-url", start_receiver())
    try:
        run(base, key_pem)
    finally:
        stop_server(server)
    plans = os.path.join(work, "Plans.storekit")
    with open(plans, "w") as f:
        f.write(PLANS_STOREKIT)
    server, base = start_server(executable, KEY_ID, key_file, "--notifications-url", start_failing_receiver(),
                                "--rate-limits", "sandbox", "--delivery", "sandbox", "--config", plans)
    try:
        check_rate_limits_delivery_and_billing_plans(base, key_pem)
    finally:
        stop_server(server)
    print("PASS: %d checks against app-store-server-library" % len(CHECKS))


def run(base, key_pem):
    control = controller(base)
    verifier = test_root_verifier(sys.argv[2])
    client = StoreClockClient(control, key_pem, KEY_ID, ISSUER, BUNDLE, Environment.SANDBOX)
    client._base_url = base

    # The app side: one-time purchases and a subscription's life.
    coins = control("POST", "purchases", {"productId": "com.example.coins100"})["transactionId"]
    pro = control("POST", "purchases", {"productId": "com.example.pro"})["transactionId"]
    monthly = control("POST", "purchases", {"productId": MONTHLY})["transactionId"]
    control("POST", "advance", {"seconds": 31 * 86400})                                   # DID_RENEW
    control("POST", "settings", {"billingRetryOnRenewal": True})
    control("POST", "advance", {"seconds": 31 * 86400})                                   # DID_FAIL_TO_RENEW
    control("POST", "settings", {"billingRetryOnRenewal": False})
    control("POST", "transactions/%s/resolve-billing" % monthly)                          # DID_RENEW BILLING_RECOVERY
    statuses = client.get_all_subscription_statuses(monthly)
    latest = statuses.data[0].lastTransactions[0]
    current = verifier.verify_and_decode_signed_transaction(latest.signedTransactionInfo).transactionId
    control("POST", "transactions/%s/refund-request" % current)                           # CONSUMPTION_REQUEST
    client.send_consumption_information(current, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))
    control("POST", "transactions/%s/refund" % current)                                   # REFUND
    bought = control("POST", "purchases", {"productId": MONTHLY})                          # SUBSCRIBED RESUBSCRIBE
    again, original = bought["transactionId"], bought["originalTransactionId"]
    extended = client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
        extendByDays=7, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier="one"))
    check(extended.success is True and extended.originalTransactionId == original, "extend a subscription renewal date")
    control("POST", "transactions/%s/auto-renew" % again, {"enabled": False})              # DID_CHANGE_RENEWAL_STATUS
    control("POST", "advance", {"seconds": 40 * 86400})                                   # EXPIRED VOLUNTARY
    control("POST", "notifications/wait")

    signed = []

    info = client.get_transaction_info(pro)
    decoded = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
    check(decoded.transactionId == pro and decoded.productId == "com.example.pro", "get transaction info")
    signed.append(info.signedTransactionInfo)

    app = verifier.verify_and_decode_app_transaction(client.get_app_transaction_info(pro).signedAppTransactionInfo)
    check(app.bundleId == BUNDLE and app.receiptType == Environment.SANDBOX and app.appTransactionId
          and app.originalPlatform == PurchasePlatform.IOS and app.originalPurchaseDate,
          "get app transaction info: %s %s" % (app.appTransactionId, app.rawOriginalPlatform))
    again_app = verifier.verify_and_decode_app_transaction(
        client.get_app_transaction_info(monthly).signedAppTransactionInfo)
    check(again_app.appTransactionId == app.appTransactionId, "one app transaction, whichever transaction names it")
    try:
        by_own = client.get_app_transaction_info(app.appTransactionId).signedAppTransactionInfo
        check(verifier.verify_and_decode_app_transaction(by_own).appTransactionId == app.appTransactionId,
              "get app transaction info by the appTransactionId")
    except APIException as error:
        check(False, "get app transaction info by the appTransactionId: %s %s" % (error.http_status_code, error.raw_api_error))
    try:
        client.get_app_transaction_info("999999999")
        check(False, "get app transaction info refuses an unknown transaction id")
    except APIException as error:
        check(error.http_status_code == 404, "get app transaction info: 404 for an unknown transaction id (%s)"
              % error.raw_api_error)

    client.set_app_account_token(pro, UpdateAppAccountTokenRequest(appAccountToken=APP_ACCOUNT_TOKEN))
    info = client.get_transaction_info(pro)
    decoded = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
    check(decoded.appAccountToken == APP_ACCOUNT_TOKEN, "set app account token shows in the signed transaction")
    signed.append(info.signedTransactionInfo)
    for target, token, code in [(pro, "not-a-uuid", 4000183), (current, APP_ACCOUNT_TOKEN, 4000187),
                                ("999999999", APP_ACCOUNT_TOKEN, 4040005)]:
        try:
            client.set_app_account_token(target, UpdateAppAccountTokenRequest(appAccountToken=token))
            check(False, "set app account token refuses %s %s" % (target, token))
        except APIException as error:
            check(error.raw_api_error == code, "set app account token: %s for %s %s" % (code, target, token))

    client.finish_transaction(coins)
    check(verifier.verify_and_decode_signed_transaction(client.get_transaction_info(coins).signedTransactionInfo)
          .transactionId == coins, "a finished transaction is still the store's")
    try:
        client.finish_transaction("999999999")
        check(False, "finish transaction refuses an unknown transaction id")
    except APIException as error:
        check(error.http_status_code == 404 and error.raw_api_error == 4040010, "finish: TransactionIdNotFound")

    history, revision, pages = [], None, 0
    while True:
        page = client.get_transaction_history(monthly, revision, TransactionHistoryRequest(sort=Order.ASCENDING),
                                              GetTransactionHistoryVersion.V2)
        history += page.signedTransactions
        revision, pages = page.revision, pages + 1
        if not page.hasMore:
            break
    decoded = [verifier.verify_and_decode_signed_transaction(s) for s in history]
    check(len(decoded) >= 5, "transaction history lists every purchase and renewal (%d)" % len(decoded))
    check({coins, pro, monthly, again} <= {d.transactionId for d in decoded}, "history holds the purchases")
    filtered = client.get_transaction_history(monthly, None, TransactionHistoryRequest(
        productTypes=[ProductType.AUTO_RENEWABLE], revoked=False), GetTransactionHistoryVersion.V2)
    check(all(verifier.verify_and_decode_signed_transaction(s).productId == MONTHLY for s in filtered.signedTransactions)
          and filtered.signedTransactions, "history filters by product type")
    signed += history

    for status in client.get_all_subscription_statuses(monthly, [Status.ACTIVE, Status.EXPIRED, Status.REVOKED]).data:
        for item in status.lastTransactions:
            verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
            renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
            check(renewal.originalTransactionId == item.originalTransactionId, "renewal info of a status item")

    refunds = client.get_refund_history(monthly, None)
    check([verifier.verify_and_decode_signed_transaction(s).transactionId for s in refunds.signedTransactions]
          == [current], "refund history holds the refund")

    order = client.look_up_order_id(pro)
    check(order.status == 0 and len(order.signedTransactions) == 1, "look up order id")
    verifier.verify_and_decode_signed_transaction(order.signedTransactions[0])
    check(client.look_up_order_id("0").status == 1, "an unknown order id is invalid")

    mass = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier="mass-1",
        productId=MONTHLY))
    status = client.get_status_of_subscription_renewal_date_extensions(mass.requestIdentifier, MONTHLY)
    check(status.complete is True, "mass extension status")

    token = client.request_test_notification().testNotificationToken
    control("POST", "notifications/wait")
    test = client.get_test_notification_status(token)
    check(verifier.verify_and_decode_notification(test.signedPayload).notificationType.value == "TEST",
          "test notification status")

    try:
        client.get_transaction_info("999999999")
        check(False, "an unknown transaction id is refused")
    except APIException as error:
        check(error.http_status_code == 404 and error.raw_api_error == 4040010, "TransactionIdNotFound")

    now = control("GET", "store")["now"]
    notifications, token = [], None
    while True:
        page = client.get_notification_history(token, NotificationHistoryRequest(startDate=now - 150 * 86400000,
                                                                                 endDate=now + 1))
        notifications += page.notificationHistory
        token = page.paginationToken
        if not page.hasMore:
            break
    check(len(notifications) == len(Receiver.bodies), "notification history holds every notification sent")

    received = []
    for body in Receiver.bodies:
        payload = verifier.verify_and_decode_notification(body["signedPayload"])
        kind = payload.notificationType.value + ("/" + payload.subtype.value if payload.subtype else "")
        received.append(kind)
        if payload.data and payload.data.signedTransactionInfo:
            verifier.verify_and_decode_signed_transaction(payload.data.signedTransactionInfo)
        if payload.data and payload.data.signedRenewalInfo:
            verifier.verify_and_decode_renewal_info(payload.data.signedRenewalInfo)
    expected = ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW",
                "DID_RENEW/BILLING_RECOVERY", "CONSUMPTION_REQUEST", "REFUND", "SUBSCRIBED/RESUBSCRIBE",
                "RENEWAL_EXTENDED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
                "RENEWAL_EXTENSION/SUMMARY", "TEST"]
    check(received == expected, "notifications in store order: %s" % received)
    for jws in signed:
        verifier.verify_and_decode_signed_transaction(jws)
    check_deprecated_endpoints_and_prorated_refunds(base, control, client, verifier)


def check_deprecated_endpoints_and_prorated_refunds(base, control, client, verifier):
    """Send Consumption Information V1, Get Transaction History V2 with a finished consumable (and V1 without it),
    Get Refund History V1 (a raw request: the library has no call for it), and a prorated refund's revocationType and
    revocationPercentage, verified with SignedDataVerifier."""
    pro = control("POST", "purchases", {"productId": "com.example.pro"})["transactionId"]
    coins = control("POST", "purchases", {"productId": "com.example.coins100"})["transactionId"]

    client.send_consumption_data(coins, ConsumptionRequestV1(
        customerConsented=True, consumptionStatus=ConsumptionStatus.PARTIALLY_CONSUMED, platform=Platform.APPLE,
        sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
        appAccountToken="", accountTenure=AccountTenure.THIRTY_DAYS_TO_NINETY_DAYS,
        playTime=PlayTime.ONE_TO_SIX_HOURS, lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
        lifetimeDollarsPurchased=LifetimeDollarsPurchased.
        FIFTY_DOLLARS_TO_NINETY_NINE_DOLLARS_AND_NINETY_NINE_CENTS,
        userStatus=UserStatus.ACTIVE, refundPreference=RefundPreferenceV1.PREFER_DECLINE))
    kept = control("GET", "transactions/%s/consumption" % coins)
    check(kept["version1"]["playTime"] == 3 and kept["refundPreference"] == "DECLINE",
          "send consumption data (V1) is kept by the store: %s" % kept)
    try:
        client.send_consumption_data(coins, ConsumptionRequestV1(
            customerConsented=True, consumptionStatus=ConsumptionStatus.UNDECLARED, rawPlatform=7,
            sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
            appAccountToken="", accountTenure=AccountTenure.UNDECLARED, playTime=PlayTime.UNDECLARED,
            lifetimeDollarsRefunded=LifetimeDollarsRefunded.UNDECLARED,
            lifetimeDollarsPurchased=LifetimeDollarsPurchased.UNDECLARED, userStatus=UserStatus.UNDECLARED))
        check(False, "send consumption data (V1) refuses platform 7")
    except APIException as error:
        check(error.http_status_code == 400 and error.raw_api_error == 4000039, "V1: InvalidPlatform")

    # The consumable is finished (bought outside the app, no device holds it): V2 lists it, V1 does not.
    def history(version):
        ids, revision = [], None
        while True:
            page = client.get_transaction_history(pro, revision, TransactionHistoryRequest(sort=Order.ASCENDING),
                                                  version)
            ids += [verifier.verify_and_decode_signed_transaction(s).transactionId for s in page.signedTransactions]
            revision = page.revision
            if not page.hasMore:
                return ids
    check(coins in history(GetTransactionHistoryVersion.V2), "transaction history V2 holds a finished consumable")
    check(coins not in history(GetTransactionHistoryVersion.V1), "transaction history V1 leaves it out")

    control("POST", "transactions/%s/refund" % coins, {"percentage": 50000})              # REFUND, prorated
    control("POST", "notifications/wait")
    refunded = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(coins).signedTransactionInfo)
    check(refunded.revocationType == RevocationType.REFUND_PRORATED and refunded.revocationPercentage == 50000,
          "a prorated refund: %s %s" % (refunded.rawRevocationType, refunded.revocationPercentage))
    last = verifier.verify_and_decode_notification(Receiver.bodies[-1]["signedPayload"])
    sent = verifier.verify_and_decode_signed_transaction(last.data.signedTransactionInfo)
    check(last.notificationType.value == "REFUND" and sent.revocationType == RevocationType.REFUND_PRORATED
          and sent.revocationPercentage == 50000, "the REFUND notification carries the prorated refund")
    check(coins in history(GetTransactionHistoryVersion.V1), "transaction history V1 lists a refunded consumable")

    def raw(path):
        request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + client._generate_token()})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
    status, lookup = raw("/inApps/v1/refund/lookup/%s" % pro)
    check(status == 200 and list(lookup) == ["signedTransactions"], "get refund history V1: %s" % lookup)
    decoded = [verifier.verify_and_decode_signed_transaction(s) for s in lookup["signedTransactions"]]
    check(coins in [d.transactionId for d in decoded], "get refund history V1 holds the prorated refund")
    check(all(d.revocationType in (RevocationType.REFUND_FULL, RevocationType.REFUND_PRORATED) for d in decoded),
          "every refund says its revocation type")
    status, error = raw("/inApps/v1/refund/lookup/999999999")
    check(status == 404 and error["errorCode"] == 4040005, "get refund history V1: OriginalTransactionIdNotFound")


def check_rate_limits_delivery_and_billing_plans(base, key_pem):
    """The second server: `--rate-limits sandbox`, `--delivery sandbox`, a catalog with billing plans."""
    control = controller(base)
    verifier = test_root_verifier(sys.argv[2])
    client = StoreClockClient(control, key_pem, KEY_ID, ISSUER, BUNDLE, Environment.SANDBOX)
    client._base_url = base

    # Counts are kept in whole hours of the store's clock: start at the top of one, so the loop stays in it.
    now = control("GET", "store")["now"]
    control("POST", "advance", {"to": (now // HOUR_MS + 1) * HOUR_MS})
    token = client.request_test_notification().testNotificationToken
    control("POST", "notifications/wait")      # its status is there once it was attempted
    fixed = client._generate_token()
    client._generate_token = lambda: fixed     # one token for the loop: it asks nothing of the control API
    for _ in range(360):                       # Get Test Notification Status: 1 a second, Sandbox's 10 % of 3600
        client.get_test_notification_status(token)
    try:
        client.get_test_notification_status(token)
        check(False, "the 361st Get Test Notification Status of the hour is refused")
    except APIException as error:
        check(error.http_status_code == 429 and error.api_error == APIError.RATE_LIMIT_EXCEEDED
              and error.raw_api_error == 4290000, "past the limit: 429 RATE_LIMIT_EXCEEDED (%s %s)"
              % (error.http_status_code, error.raw_api_error))
    request = urllib.request.Request(base + "/inApps/v1/notifications/test/" + token,
                                     headers={"Authorization": "Bearer " + fixed})
    try:
        urllib.request.urlopen(request, timeout=60)
        check(False, "a raw request past the limit is refused too")
    except urllib.error.HTTPError as error:
        now = control("GET", "store")["now"]
        retry = int(error.headers.get("Retry-After", "0"))
        check(error.code == 429 and retry == (now // HOUR_MS + 1) * HOUR_MS,
              "Retry-After is the next hour of the store's clock, in milliseconds (%s, now %s)" % (retry, now))
    check(client.request_test_notification().testNotificationToken, "another endpoint keeps its own count")
    control("POST", "advance", {"to": retry})
    del client._generate_token                 # tokens on the store's clock again
    status = client.get_test_notification_status(token)
    check(verifier.verify_and_decode_notification(status.signedPayload).notificationType.value == "TEST",
          "past the hour, the endpoint answers again")

    # Billing plans: a yearly subscription billed monthly, with its twelve-month commitment.
    try:
        control("POST", "purchases", {"productId": ANNUAL, "billingPlan": "WEEKLY"})
        check(False, "the control API refuses a billing plan that is not MONTHLY or BILLED_UPFRONT")
    except urllib.error.HTTPError as error:
        message = json.loads(error.read())["error"]["message"]
        check(error.code == 400 and "billingPlan" in message, "an unknown billing plan is 400: " + message)
    bought = control("POST", "purchases", {"productId": ANNUAL, "billingPlan": "MONTHLY"})["transactionId"]
    first = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(bought).signedTransactionInfo)
    commitment = first.commitmentInfo
    check(first.billingPlanType == BillingPlanType.MONTHLY and first.price == 9990 and commitment
          and commitment.billingPeriodNumber == 1 and commitment.totalBillingPeriods == 12
          and commitment.commitmentPrice == 119880 and commitment.commitmentExpiresDate > first.expiresDate,
          "billed monthly: period 1 of 12, %s, price %s" % (commitment, first.price))
    statuses = client.get_all_subscription_statuses(bought)
    item = statuses.data[0].lastTransactions[0]
    renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
    renews = renewal.commitmentInfo
    check(renewal.renewalBillingPlanType == RenewalBillingPlanType.MONTHLY and renews
          and renews.commitmentRenewalDate == commitment.commitmentExpiresDate
          and renews.commitmentRenewalPrice == 119880
          and renews.commitmentRenewalBillingPlanType == RenewalBillingPlanType.MONTHLY
          and renews.commitmentAutoRenewProductId == ANNUAL and renews.commitmentAutoRenewStatus.value == 1,
          "the renewal info renews monthly, with its commitment: %s" % renews)
    control("POST", "advance", {"seconds": 31 * 86400})                                   # DID_RENEW
    item = client.get_all_subscription_statuses(bought).data[0].lastTransactions[0]
    second = verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
    check(second.transactionId != bought and second.originalTransactionId == bought
          and second.billingPlanType == BillingPlanType.MONTHLY and second.commitmentInfo.billingPeriodNumber == 2
          and second.commitmentInfo.totalBillingPeriods == 12 and second.price == 9990,
          "a month later it renewed: period %s of the same commitment" % second.commitmentInfo.billingPeriodNumber)
    verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)

    # Sandbox delivery: each notification attempted once, however long the clock runs after it failed.
    control("POST", "advance", {"seconds": 4 * 86400})
    control("POST", "notifications/wait")
    now = control("GET", "store")["now"]
    history = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=now - 60 * 86400000, endDate=now + 1)).notificationHistory
    kinds = [verifier.verify_and_decode_notification(n.signedPayload).notificationType.value for n in history]
    check(kinds.count("SUBSCRIBED") == 1 and kinds.count("DID_RENEW") == 1 and kinds.count("TEST") == 2,
          "notification history of the second server: %s" % kinds)
    check(all(len(n.sendAttempts) == 1 and n.sendAttempts[0].sendAttemptResult
              == SendAttemptResult.UNSUCCESSFUL_HTTP_RESPONSE_CODE for n in history)
          and FailingReceiver.attempts == len(history),
          "--delivery sandbox: one attempt each, never retried (%d sent for %d)"
          % (FailingReceiver.attempts, len(history)))


if __name__ == "__main__":
    main()
