#!/bin/sh
# Makes the test subscription-offer key: a P-256 key pair standing in for the in-app purchase key a developer makes in
# App Store Connect to sign promotional offers. Test key only: never use it for anything real.
#
# Writes Receipts/offers/test-offer-key.p8 (PKCS#8 private key, as App Store Connect's download),
# Receipts/offers/test-offer-key.pub.pem (its public key, what a store is configured with) and
# Sources/OpenStoreKitTest/PromotionalOfferSigner+TestKey.swift (which embeds both, so that a built binary can sign
# offers without this folder).
#
# Usage: Receipts/make-offer-key.sh    (needs the openssl command, 1.1.1 or later)
# Running it again makes a new key: commit the result, and re-run the tests.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root_dir=$(cd "$here/.." && pwd)
out="$here/offers"
swift_out="$root_dir/Sources/OpenStoreKitTest/PromotionalOfferSigner+TestKey.swift"
mkdir -p "$out"

openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out "$out/test-offer-key.p8"
openssl pkey -in "$out/test-offer-key.p8" -pubout -out "$out/test-offer-key.pub.pem"

{
    echo '// Made by Receipts/make-offer-key.sh: do not edit. A test key only.'
    echo
    echo 'extension PromotionalOfferSigner {'
    echo '    /// The identifier of the test subscription-offer key.'
    echo '    public static let testKeyID = "OPENSTOREKIT-TEST-OFFER-KEY"'
    echo
    echo '    /// The test subscription-offer key'"'"'s public half (PEM), what a store checks offers with.'
    echo '    public static let testPublicKeyPEM = """'
    sed 's/^/        /' "$out/test-offer-key.pub.pem"
    echo '        """'
    echo
    echo '    /// The test subscription-offer key'"'"'s private half (PKCS#8 PEM). A test key only.'
    echo '    static let testPrivateKeyPEM = """'
    sed 's/^/        /' "$out/test-offer-key.p8"
    echo '        """'
    echo '}'
} > "$swift_out"
echo "wrote $out/test-offer-key.p8, $out/test-offer-key.pub.pem and $swift_out"
