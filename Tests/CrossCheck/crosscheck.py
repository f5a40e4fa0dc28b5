"""What the cross-checks with Apple's App Store Server Library share: the app they check, the record of checks made, a
notification receiver, a verifier that trusts only the project's test root, environment Sandbox, and a served store
with Apple's client on the store's clock."""

import http.server
import json
import os
import subprocess
import threading
import urllib.request

import jwt
from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509 import load_pem_x509_certificate

BUNDLE = "com.example.app"
ISSUER = "57246542-96fe-1a63-e053-0824d011072a"
CONTROL_TOKEN = "cross-check-control"
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


def refused(call, code, what):
    """Checks that a call of Apple's client fails with Apple's error code."""
    try:
        call()
        check(False, what + " is refused with %d" % code)
    except APIException as error:
        check(error.raw_api_error == code, "%s is refused with %d (got %s)" % (what, code, error.raw_api_error))


def new_api_key(folder, key_id):
    """A new In-App Purchase key: its PEM, and the AuthKey_KEYID.p8 file in `folder` that `serve --api-key` reads."""
    key = ec.generate_private_key(ec.SECP256R1())
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    key_file = os.path.join(folder, "AuthKey_%s.p8" % key_id)
    with open(key_file, "wb") as f:
        f.write(key_pem)
    return key_pem, key_file


# A PostgreSQL URL: when set, each served store keeps its state in a new schema of that database
# (`serve --database`) instead of in memory, so the same checks run against a store on PostgreSQL.
POSTGRES = os.environ.get("OPENSTOREKIT_CROSSCHECK_POSTGRES", "")


def fresh_database():
    """A URL of a new, empty schema of the POSTGRES database, made with psql."""
    schema = "crosscheck_%d_%s" % (os.getpid(), os.urandom(6).hex())
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", POSTGRES, "-c", "CREATE SCHEMA " + schema], check=True)
    separator = "&" if "?" in POSTGRES else "?"
    return POSTGRES + separator + "options=-csearch_path%3D" + schema


def start_server(executable, key_id, key_file, *options):
    """Starts `openstorekit serve` on a port of its own with the key and the options; returns it and its base URL.
    With OPENSTOREKIT_CROSSCHECK_POSTGRES set, the store is on a new schema of that database."""
    database = ["--database", fresh_database()] if POSTGRES else []
    server = subprocess.Popen(
        [executable, "serve", "--port", "0", "--api-key", "%s=%s" % (key_id, key_file), "--issuer-id", ISSUER,
         "--control-token", CONTROL_TOKEN] + database + list(options),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = server.stdout.readline().strip()
    check(base.startswith("http://127.0.0.1:"), "the first line is the base URL: " + base)
    return server, base


def stop_server(server):
    """Stops a served store with SIGTERM; checks it exits 0."""
    server.terminate()
    code = server.wait(timeout=30)
    check(code == 0, "the server exits 0 on SIGTERM (got %s)" % code)


def controller(base):
    """A call of the served store's control API: the decoded JSON answer, or None for an empty one."""
    def control(method, path, body=None):
        request = urllib.request.Request(base + "/openstorekit/v1/" + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": "Bearer " + CONTROL_TOKEN})
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read()
            return json.loads(text) if text else None
    return control


class StoreClockClient(AppStoreServerAPIClient):
    """Apple's client, minting its tokens on the store's clock (which the test moves) instead of the wall clock."""

    def __init__(self, control, *args):
        super().__init__(*args)
        self._control = control

    def _generate_token(self):
        now = self._control("GET", "store")["now"] // 1000
        return jwt.encode(
            {"bid": self._bundle_id, "iss": self._issuer_id, "aud": "appstoreconnect-v1", "exp": now + 300},
            self._signing_key, algorithm="ES256", headers={"kid": self._key_id})
