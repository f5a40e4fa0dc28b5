"""What the cross-checks with Apple's App Store Server Library share: the app they check, the record of checks made, a
notification receiver, and a verifier that trusts only the project's test root, environment Sandbox."""

import http.server
import json
import threading

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from cryptography.hazmat.primitives import serialization
from cryptography.x509 import load_pem_x509_certificate

BUNDLE = "com.example.app"
CHECKS = []


def check(condition, what):
    """Records a check; stops the script with FAIL and what was checked when it does not hold."""
    CHECKS.append(what)
    if not condition:
        raise SystemExit("FAIL: " + what)


class Receiver(http.server.BaseHTTPRequestHandler):
    """Keeps each notification's JSON body, in arrival order, and answers 200."""

    bodies = []

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        Receiver.bodies.append(json.loads(self.rfile.read(length)))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def start_receiver():
    """Starts a Receiver on a loopback port of its own; returns the URL to send notifications to."""
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d/notifications" % receiver.server_address[1]


def test_root_verifier(root_pem):
    """Apple's SignedDataVerifier trusting only the root in the PEM file, environment Sandbox, online checks off."""
    with open(root_pem, "rb") as f:
        root = load_pem_x509_certificate(f.read()).public_bytes(serialization.Encoding.DER)
    return SignedDataVerifier([root], False, Environment.SANDBOX, BUNDLE)
