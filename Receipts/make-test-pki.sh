#!/bin/sh
# Makes the test PKI for receipts: an Apple-like chain (root -> intermediate -> receipt-signing leaf) and the
# certificates the negative tests need, with fixed validity dates so that tests never rot.
#
# Writes Receipts/pki/*.pem|*.key|*.cer and Sources/ReceiptKit/Signing/TestSigningIdentity+PEM.swift (which embeds
# the root, intermediate, leaf and leaf key, so that a built binary can issue receipts without this folder).
#
# Usage: Receipts/make-test-pki.sh    (needs the openssl command, 1.1.1 or later)
# Running it again makes new keys: commit the result, and re-run the tests.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root_dir=$(cd "$here/.." && pwd)
out="$here/pki"
swift_out="$root_dir/Sources/ReceiptKit/Signing/TestSigningIdentity+PEM.swift"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$out" "$work/newcerts"
: > "$work/index.txt"

cat > "$work/ca.cnf" <<CNF
[ ca ]
default_ca = test_ca

[ test_ca ]
database = $work/index.txt
new_certs_dir = $work/newcerts
serial = $work/serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = no
preserve = yes

[ policy_any ]
countryName = optional
organizationName = optional
organizationalUnitName = optional
commonName = supplied

[ req ]
distinguished_name = req_dn
prompt = no

[ req_dn ]
CN = unused

[ root_ext ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash

[ intermediate_ext ]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
1.2.840.113635.100.6.2.1 = DER:0500

[ intermediate_unmarked_ext ]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[ leaf_ext ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
certificatePolicies = 1.2.840.113635.100.5.6.1
1.2.840.113635.100.6.11.1 = DER:0500

[ leaf_unmarked_ext ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
certificatePolicies = 1.2.840.113635.100.5.6.1
CNF

# make NAME SUBJECT EXTENSIONS START END SERIAL ISSUER   (ISSUER "self" = self-signed)
make() {
    name=$1 subject=$2 extensions=$3 start=$4 end=$5 serial=$6 issuer=$7
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$out/$name.key" 2>/dev/null
    openssl req -new -config "$work/ca.cnf" -key "$out/$name.key" -subj "$subject" -out "$work/$name.csr"
    echo "$serial" > "$work/serial"
    if [ "$issuer" = self ]; then
        set -- -selfsign -keyfile "$out/$name.key"
    else
        set -- -cert "$out/$issuer.pem" -keyfile "$out/$issuer.key"
    fi
    openssl ca -batch -notext -config "$work/ca.cnf" "$@" -in "$work/$name.csr" -out "$out/$name.pem" \
        -startdate "$start" -enddate "$end" -extensions "$extensions" 2>/dev/null
    openssl x509 -in "$out/$name.pem" -outform DER -out "$out/$name.cer"
}

org="/C=US/O=OpenStoreKit Test"
make root "$org/OU=Test Certification Authority/CN=OpenStoreKit Test Root CA" \
    root_ext 20200101000000Z 20600101000000Z 1001 self
make intermediate "$org/OU=G5/CN=OpenStoreKit Test WWDR Certification Authority" \
    intermediate_ext 20200101000000Z 20591231000000Z 2001 root
make leaf "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test Receipt Signing" \
    leaf_ext 20200101000000Z 20581231000000Z 3001 intermediate
make leaf-expired "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test Receipt Signing (expired)" \
    leaf_ext 20200101000000Z 20210101000000Z 3002 intermediate
make leaf-not-yet-valid "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test Receipt Signing (2055)" \
    leaf_ext 20550101000000Z 20581231000000Z 3003 intermediate
make leaf-unmarked "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test Signing (no marker)" \
    leaf_unmarked_ext 20200101000000Z 20581231000000Z 3004 intermediate
make intermediate-unmarked "$org/OU=G0/CN=OpenStoreKit Test Intermediate (no marker)" \
    intermediate_unmarked_ext 20200101000000Z 20591231000000Z 2002 root
make leaf-under-unmarked "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test Receipt Signing (G0)" \
    leaf_ext 20200101000000Z 20581231000000Z 3005 intermediate-unmarked
make other-root "$org/OU=Unrelated Authority/CN=OpenStoreKit Unrelated Test Root CA" \
    root_ext 20200101000000Z 20600101000000Z 1002 self

# Sanity checks: the good chain verifies at 2025-01-01, the negative ones do not.
check() {
    if openssl verify -x509_strict -attime 1735689600 -CAfile "$out/root.pem" -untrusted "$out/$2.pem" \
        "$out/$3.pem" > /dev/null 2>&1; then result=ok; else result=fails; fi
    [ "$result" = "$1" ] || { echo "make-test-pki.sh: $3 should be $1 at 2025-01-01 but $result" >&2; exit 1; }
}
check ok intermediate leaf
check ok intermediate leaf-unmarked
check ok intermediate-unmarked leaf-under-unmarked
check fails intermediate leaf-expired
check fails intermediate leaf-not-yet-valid

pem_literal() {
    printf '            """\n'
    sed 's/^/            /' "$1"
    printf '            """\n'
}

{
    printf '// Generated by Receipts/make-test-pki.sh: do not edit. These keys are for tests only; never trust them.\n'
    printf '\n'
    printf 'extension ReceiptSigningIdentity {\n'
    printf '    /// The PEM texts of the test PKI in `Receipts/pki/`.\n'
    printf '    enum TestPEM {\n'
    printf '        /// `Receipts/pki/root.pem`: the test root, valid 2020 to 2060.\n'
    printf '        static let root =\n'
    pem_literal "$out/root.pem"
    printf '        /// `Receipts/pki/intermediate.pem`: carries the intermediate marker 1.2.840.113635.100.6.2.1.\n'
    printf '        static let intermediate =\n'
    pem_literal "$out/intermediate.pem"
    printf '        /// `Receipts/pki/leaf.pem`: carries the receipt-signing marker 1.2.840.113635.100.6.11.1.\n'
    printf '        static let leaf =\n'
    pem_literal "$out/leaf.pem"
    printf '        /// `Receipts/pki/leaf.key`: the leaf private key (RSA-2048).\n'
    printf '        static let leafKey =\n'
    pem_literal "$out/leaf.key"
    printf '    }\n'
    printf '}\n'
} > "$swift_out"

echo "wrote $out and $swift_out"
