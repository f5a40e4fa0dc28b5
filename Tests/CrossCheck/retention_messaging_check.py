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
import struct
import sys
import tempfile
import threading
import uuid
import zlib

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

from crosscheck import (BUNDLE, CHECKS, ISSUER, StoreClockClient, check, controller, new_api_key, refused, start_server,
                        stop_server, test_root_verifier)

KEY_ID = "RETENTION"
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


def main():
    executable, root_pem = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="openstorekit-retention-")
    key_pem, key_file = new_api_key(work, KEY_ID)
    RetentionEndpoint.verifier = test_root_verifier(root_pem)
    endpoint = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RetentionEndpoint)
    threading.Thread(target=endpoint.serve_forever, daemon=True).start()
    endpoint_url = "http://127.0.0.1:%d/retention" % endpoint.server_address[1]
    server, base = start_server(executable, KEY_ID, key_file)
    try:
        run(base, key_pem, endpoint_url)
    finally:
        stop_server(server)
        endpoint.shutdown()
    print("PASS: %d Retention Messaging checks against app-store-server-library" % len(CHECKS))


def run(base, key_pem, endpoint_url):
    control = controller(base)
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
