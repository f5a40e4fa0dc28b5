"""Cross-check of `openstorekit run FEED --serve` with Apple's App Store Server Library for Python.

Runs a feed (the third argument) served by the executable given as the first argument, with `--notifications-url`
pointing at a receiver of this script's own, and verifies every notification it receives with Apple's
`SignedDataVerifier` (its signedTransactionInfo and signedRenewalInfo too), trusting only the project's test root (the
second argument, Receipts/jws/root.pem), environment Sandbox. The notifications must be the feed's
`expect notification` lines, in their order. Exits 0 when everything matched, 1 with the first mismatch otherwise.
"""

import subprocess
import sys

from crosscheck import BUNDLE, CHECKS, Receiver, check, start_receiver, test_root_verifier

KEYWORDS = {"for", "product", "status"}


def expected_notifications(feed):
    """TYPE or TYPE/SUBTYPE of each `expect notification` line of the feed, in order."""
    kinds = []
    with open(feed) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words[:2] != ["expect", "notification"] or len(words) < 3:
                continue
            kind = words[2]
            if len(words) > 3 and words[3] not in KEYWORDS:
                kind += "/" + words[3]
            kinds.append(kind)
    return kinds


def main():
    executable, root_pem, feed = sys.argv[1], sys.argv[2], sys.argv[3]
    url = start_receiver()
    run = subprocess.run([executable, "run", feed, "--serve", "--port", "0", "--notifications-url", url],
                         capture_output=True, text=True, timeout=300)
    check(run.returncode == 0, "the served feed passes (exit %d): %s" % (run.returncode, run.stderr.strip()))
    check(run.stdout.startswith("http://127.0.0.1:"), "the first line is the base URL: " + run.stdout.strip())
    check("PASS " + feed in run.stderr, "the verdict is PASS")

    signed = test_root_verifier(root_pem)
    received = []
    for body in Receiver.bodies:
        payload = signed.verify_and_decode_notification(body["signedPayload"])
        received.append(payload.notificationType.value + ("/" + payload.subtype.value if payload.subtype else ""))
        check(payload.data is not None and payload.data.bundleId == BUNDLE, "a notification's data names the app")
        transaction = signed.verify_and_decode_signed_transaction(payload.data.signedTransactionInfo)
        if payload.data.signedRenewalInfo:
            renewal = signed.verify_and_decode_renewal_info(payload.data.signedRenewalInfo)
            check(renewal.originalTransactionId == transaction.originalTransactionId,
                  "a notification's renewal info is its transaction's subscription's")
    expected = expected_notifications(feed)
    check(len(expected) > 0, "the feed expects notifications")
    check(received == expected, "the notifications received are the feed's, in order: %s" % received)
    print("PASS: %d checks of %s against app-store-server-library (%d notifications)"
          % (len(CHECKS), feed, len(received)))


if __name__ == "__main__":
    main()
