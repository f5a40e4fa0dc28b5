"""Cross-check of the Retention Messaging API of `openstorekit serve` with Apple's App Store Server Library for Python.

Starts the server (the executable given as the first argument) with a fresh In-App Purchase key, buys a subscription
through the control API, calls every Retention Messaging endpoint with Apple's `AppStoreServerAPIClient` (images,
messages, default messages, the real-time URL, a performance test), and runs a Get Retention Message endpoint of its
own that verifies each real-time request with Apple's `SignedDataVerifier.verify_and_decode_realtime_request`,
trusting only the project's test root (the PEM file given as the second argument), and answers with a message. Then
it has the customer open the cancellation flow and checks what the store recorded as shown: the message the endpoint
chose, and the default message when the endpoint answers garbage. Exits 0 when everything matched, 1 with the first
mismatch otherwise.
"""

import http.server
import json
import os
import struct
import subprocess
import sys
import tempfile
import threading
import urllib.request
import uuid
import zlib

import jwt
from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.ImageState import ImageState
from appstoreserverlibrary.models.MessageState import MessageState
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.PerformanceTestStatus import PerformanceTestStatus
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from crosscheck import BUNDLE, CHECKS, check, test_root_verifier

ISSUER = "57246542-96fe-1a63-e053-0824d011072a"
KEY_ID = "RETENTION"
CONTROL_TOKEN = "retention-check-control"
MONTHLY = "com.example.premium.monthly"
IMAGE = uuid.UUID("a1a1a1a1-0000-4000-8000-000000000001")
BULLET = uuid.UUID("a1a1a1a1-0000-4000-8000-000000000002")
MESSAGE = uuid.UUID("b2b2b2b2-0000-4000-8000-000000000001")
DEFAULT = uuid.UUID("b2b2b2b2-0000-4000-8000-000000000002")


def png(width, height, color_type=2):
    """A PNG of one color: RGB (color type 2) has no transparency, RGBA (6) has."""
    channels = 3 if color_type == 2 else 4
    raw = (b"\x00" + b"\x40" * (width * channels)) * height

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


class RetentionEndpoint(http.server.BaseHTTPRequestHandler):
    """A Get Retention Message endpoint: verifies each request with Apple's verifier, keeps the decoded request, and
    answers with MESSAGE (or, when `garbage` is set, with something that is not a RealtimeResponseBody)."""

    verifier = None
    decoded = []
    errors = []
    garbage = False

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        try:
            body = json.loads(self.rfile.read(length))
            RetentionEndpoint.decoded.append(
                RetentionEndpoint.verifier.verify_and_decode_realtime_request(body["signedPayload"]))
        except Exception as error:  # recorded, and checked by the script
            RetentionEndpoint.errors.append(repr(error))
        answer = b"not json" if RetentionEndpoint.garbage else json.dumps(
            {"message": {"messageIdentifier": str(MESSAGE)}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


class StoreClockClient(AppStoreServerAPIClient):
    """Apple's client, minting its tokens on the store's clock instead of the wall clock."""

    def __init__(self, control, *args):
        super().__init__(*args)
        self._control = control

    def _generate_token(self):
        now = self._control("GET", "store")["now"] // 1000
        return jwt.encode(
            {"bid": self._bundle_id, "iss": self._issuer_id, "aud": "appstoreconnect-v1", "exp": now + 300},
            self._signing_key, algorithm="ES256", headers={"kid": self._key_id})


def refused(call, code, what):
    """Checks that a call fails with Apple's error code."""
    try:
        call()
        check(False, what + " is refused with %d" % code)
    except APIException as error:
        check(error.raw_api_error == code, "%s is refused with %d (got %s)" % (what, code, error.raw_api_error))


def main():
    executable, root_pem = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="openstorekit-retention-")
    key = ec.generate_private_key(ec.SECP256R1())
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    key_file = os.path.join(work, "AuthKey_%s.p8" % KEY_ID)
    with open(key_file, "wb") as f:
        f.write(key_pem)
    RetentionEndpoint.verifier = test_root_verifier(root_pem)
    endpoint = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RetentionEndpoint)
    threading.Thread(target=endpoint.serve_forever, daemon=True).start()
    endpoint_url = "http://127.0.0.1:%d/retention" % endpoint.server_address[1]
    server = subprocess.Popen(
        [executable, "serve", "--port", "0", "--api-key", "%s=%s" % (KEY_ID, key_file), "--issuer-id", ISSUER,
         "--control-token", CONTROL_TOKEN],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = server.stdout.readline().strip()
        check(base.startswith("http://127.0.0.1:"), "the first line is the base URL: " + base)
        run(base, key_pem, endpoint_url)
    finally:
        server.terminate()
        code = server.wait(timeout=30)
        endpoint.shutdown()
    check(code == 0, "the server exits 0 on SIGTERM (got %s)" % code)
    print("PASS: %d Retention Messaging checks against app-store-server-library" % len(CHECKS))


def run(base, key_pem, endpoint_url):
    def control(method, path, body=None):
        request = urllib.request.Request(base + "/openstorekit/v1/" + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": "Bearer " + CONTROL_TOKEN})
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read()
            return json.loads(text) if text else None

    client = StoreClockClient(control, key_pem, KEY_ID, ISSUER, BUNDLE, Environment.SANDBOX)
    client._base_url = base
    original = control("POST", "purchases", {"productId": MONTHLY})["originalTransactionId"]

    # Images.
    client.upload_image(IMAGE, png(3840, 160))
    client.upload_image(BULLET, png(64, 64), ImageSize.BULLET_POINT)
    images = {item.imageIdentifier: item for item in client.get_image_list().imageIdentifiers}
    check(images[IMAGE].imageState == ImageState.APPROVED and images[IMAGE].imageSize == ImageSize.FULL_SIZE,
          "get image list: the full-size image, approved")
    check(images[BULLET].imageState == ImageState.APPROVED and images[BULLET].imageSize == ImageSize.BULLET_POINT,
          "get image list: the bullet-point image, approved")
    refused(lambda: client.upload_image(IMAGE, png(3840, 160)), 4090000, "uploading an image identifier twice")
    refused(lambda: client.upload_image(uuid.uuid4(), b"GIF89a"), 4000161, "uploading an image that is not a PNG")
    refused(lambda: client.upload_image(uuid.uuid4(), png(3840, 160, 6)), 4000161, "uploading a transparent PNG")
    refused(lambda: client.upload_image(uuid.uuid4(), png(1000, 160)), 4000161,
            "uploading a full-size image not 3840 pixels wide")

    # Messages.
    client.upload_message(MESSAGE, UploadMessageRequestBody(
        header="Before you go", body="Here is what you would miss.",
        image=UploadMessageImage(imageIdentifier=IMAGE, altText="A picture of the app"),
        bulletPoints=[BulletPoint(text="Every feature", imageIdentifier=BULLET, altText="A check mark")]))
    client.upload_message(DEFAULT, UploadMessageRequestBody(header="We miss you", body="Stay a little longer."))
    messages = {item.messageIdentifier: item for item in client.get_message_list().messageIdentifiers}
    check(messages[MESSAGE].messageState == MessageState.APPROVED and
          messages[DEFAULT].messageState == MessageState.APPROVED, "get message list: both messages, approved")
    refused(lambda: client.upload_message(MESSAGE, UploadMessageRequestBody(header="h", body="b")), 4090001,
            "uploading a message identifier twice")
    refused(lambda: client.upload_message(uuid.uuid4(), UploadMessageRequestBody(
        header="h", body="b", image=UploadMessageImage(imageIdentifier=uuid.uuid4(), altText="a"))), 4040014,
        "uploading a message whose image was never uploaded")
    refused(lambda: client.delete_image(IMAGE), 4030019, "deleting an image a message shows")

    # Default messages.
    client.configure_default_message(MONTHLY, "en-US", DefaultConfigurationRequest(messageIdentifier=DEFAULT))
    check(client.get_default_message(MONTHLY, "en-US").messageIdentifier == DEFAULT, "get default message")
    refused(lambda: client.get_default_message(MONTHLY, "fr-FR"), 4040020, "a default message never configured")
    refused(lambda: client.configure_default_message(MONTHLY, "not a locale", DefaultConfigurationRequest(
        messageIdentifier=DEFAULT)), 4000164, "a default message in an invalid locale")
    refused(lambda: client.configure_default_message(MONTHLY, "en-US", DefaultConfigurationRequest(
        messageIdentifier=uuid.uuid4())), 4040015, "a default message that was never uploaded")

    # The real-time URL.
    refused(lambda: client.get_realtime_url(), 4040021, "the real-time URL before it is configured")
    refused(lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="ftp://example.com/x")), 4000215,
            "a real-time URL that is not http or https")
    client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=endpoint_url))
    check(client.get_realtime_url().realtimeURL == endpoint_url, "get realtime URL")

    # The real-time flow: the endpoint's choice, then the default when it answers garbage.
    shown = control("POST", "retention/cancellation-flow", {"originalTransactionId": original, "locale": "en-US"})
    check(not RetentionEndpoint.errors, "every real-time request verifies: %s" % RetentionEndpoint.errors)
    request = RetentionEndpoint.decoded[-1]
    check(request.originalTransactionId == original and request.productId == MONTHLY and
          request.userLocale == "en-US" and request.environment == Environment.SANDBOX and
          str(request.requestIdentifier) == shown["requestIdentifier"] and request.signedDate > 0,
          "the real-time request carries the subscription, the locale, the environment and the request identifier")
    check(shown["source"] == "realtime" and shown["messageIdentifier"] == str(MESSAGE),
          "the store shows the message the endpoint chose: %s" % shown)
    RetentionEndpoint.garbage = True
    shown = control("POST", "retention/cancellation-flow", {"originalTransactionId": original, "locale": "en-US"})
    check(shown["source"] == "default" and shown["messageIdentifier"] == str(DEFAULT) and
          shown["failure"] == "INVALID_RESPONSE", "the store shows the default message after garbage: %s" % shown)
    RetentionEndpoint.garbage = False
    recorded = control("GET", "retention/shown")
    check([entry["source"] for entry in recorded] == ["realtime", "default"], "the store recorded both flows")

    # A performance test.
    started = client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=original))
    check(started.requestId and started.config.totalRequests > 0, "initiate performance test")
    result = client.get_performance_test_results(started.requestId)
    check(result.result == PerformanceTestStatus.PASS and result.successRate == 100 and result.numPending == 0 and
          result.target == endpoint_url and result.responseTimes.p99 >= result.responseTimes.p50,
          "get performance test results: passed")
    check(not RetentionEndpoint.errors, "every performance test request verifies")
    refused(lambda: client.get_performance_test_results(str(uuid.uuid4())), 4040018, "an unknown performance test")
    refused(lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId="999999")), 4000211,
            "a performance test of an unknown transaction")

    # Deleting.
    client.delete_default_message(MONTHLY, "en-US")
    refused(lambda: client.get_default_message(MONTHLY, "en-US"), 4040020, "a deleted default message")
    client.delete_realtime_url()
    refused(lambda: client.get_realtime_url(), 4040021, "a deleted real-time URL")
    client.delete_message(MESSAGE)
    refused(lambda: client.delete_message(MESSAGE), 4040015, "deleting a message twice")
    client.delete_image(IMAGE)
    refused(lambda: client.delete_image(IMAGE), 4040014, "deleting an image twice")
    check(IMAGE not in {item.imageIdentifier for item in client.get_image_list().imageIdentifiers},
          "a deleted image leaves the list")


if __name__ == "__main__":
    main()
