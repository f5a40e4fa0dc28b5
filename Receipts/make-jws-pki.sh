#!/bin/sh
# Makes the test PKI for StoreKit 2 JWS: an Apple-like ECDSA P-256 chain (root -> intermediate -> signing leaf), the
# certificates the negative tests need, and an Xcode-shaped self-signed certificate, with fixed validity dates so
# that tests never rot. Every certificate of the good chain passes OpenSSL's strict X.509 checks.
#
# Writes Receipts/jws/*.pem|*.key|*.cer and Sources/ReceiptKit/JWS/JWSSigningIdentity+PEM.swift (which embeds the
# chain and the leaf key, and the Xcode-shaped certificate and its key, so that a built binary can sign JWS without
# this folder).
#
# Usage: Receipts/make-jws-pki.sh    (needs the openssl command, 1.1.1 or later)
# Running it again makes new keys: commit the result, and re-run the tests.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root_dir=$(cd "$here/.." && pwd)
out="$here/jws"
swift_out="$root_dir/Sources/ReceiptKit/JWS/JWSSigningIdentity+PEM.swift"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$out" "$work/newcerts" "$(dirname "$swift_out")"
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
1.2.840.113635.100.6.11.1 = DER:0500

[ leaf_unmarked_ext ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[ xcode_ext ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,digitalSignature,keyCertSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
subjectAltName = email:StoreKit Testing in OpenStoreKit
CNF

# make NAME SUBJECT EXTENSIONS START END SERIAL ISSUER   (ISSUER "self" = self-signed)
make() {
    name=$1 subject=$2 extensions=$3 start=$4 end=$5 serial=$6 issuer=$7
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -pkeyopt ec_param_enc:named_curve \
        -out "$out/$name.key" 2>/dev/null
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
make root "$org/OU=Test Certification Authority/CN=OpenStoreKit Test Root CA - G3" \
    root_ext 20200101000000Z 20600101000000Z 4001 self
make intermediate "$org/OU=G6/CN=OpenStoreKit Test WWDR Certification Authority" \
    intermediate_ext 20200101000000Z 20591231000000Z 5001 root
make leaf "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test ECC Receipt Signing" \
    leaf_ext 20200101000000Z 20581231000000Z 6001 intermediate
make leaf-expired "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test ECC Receipt Signing (expired)" \
    leaf_ext 20200101000000Z 20210101000000Z 6002 intermediate
make leaf-unmarked "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test ECC Signing (no marker)" \
    leaf_unmarked_ext 20200101000000Z 20581231000000Z 6003 intermediate
make intermediate-unmarked "$org/OU=G0/CN=OpenStoreKit Test ECC Intermediate (no marker)" \
    intermediate_unmarked_ext 20200101000000Z 20591231000000Z 5002 root
make leaf-under-unmarked "$org/OU=Test Worldwide Developer Relations/CN=OpenStoreKit Test ECC Receipt Signing (G0)" \
    leaf_ext 20200101000000Z 20581231000000Z 6004 intermediate-unmarked
make other-root "$org/OU=Unrelated Authority/CN=OpenStoreKit Unrelated Test ECC Root CA" \
    root_ext 20200101000000Z 20600101000000Z 4002 self
make xcode "/O=StoreKit Testing in OpenStoreKit/CN=StoreKit Testing in OpenStoreKit" \
    xcode_ext 20200101000000Z 20581231000000Z 7001 self

# Sanity checks under OpenSSL's strict X.509 rules: the good chain verifies at 2025-01-01, the negative ones do not.
check() {
    if openssl verify -x509_strict -attime 1735689600 -CAfile "$out/$4.pem" -untrusted "$out/$2.pem" \
        "$out/$3.pem" > /dev/null 2>&1; then result=ok; else result=fails; fi
    [ "$result" = "$1" ] || { echo "make-jws-pki.sh: $3 should be $1 at 2025-01-01 but $result" >&2; exit 1; }
}
check ok intermediate leaf root
check ok intermediate leaf-unmarked root
check ok intermediate-unmarked leaf-under-unmarked root
check ok xcode xcode xcode
check fails intermediate leaf-expired root
check fails intermediate leaf other-root

pem_literal() {
    printf '            """\n'
    sed 's/^/            /' "$1"
    printf '            """\n'
}

{
    printf '// Generated by Receipts/make-jws-pki.sh: do not edit. These keys are for tests only; never trust them.\n'
    printf '\n'
    printf 'extension JWSSigningIdentity {\n'
    printf '    /// The PEM texts of the JWS test PKI in `Receipts/jws/`.\n'
    printf '    enum TestPEM {\n'
    printf '        /// `Receipts/jws/root.pem`: the JWS test root (ECDSA P-256), valid 2020 to 2060.\n'
    printf '        static let root =\n'
    pem_literal "$out/root.pem"
    printf '        /// `Receipts/jws/intermediate.pem`: carries the intermediate marker 1.2.840.113635.100.6.2.1.\n'
    printf '        static let intermediate =\n'
    pem_literal "$out/intermediate.pem"
    printf '        /// `Receipts/jws/leaf.pem`: carries the signing marker 1.2.840.113635.100.6.11.1.\n'
    printf '        static let leaf =\n'
    pem_literal "$out/leaf.pem"
    printf '        /// `Receipts/jws/leaf.key`: the leaf private key (ECDSA P-256).\n'
    printf '        static let leafKey =\n'
    pem_literal "$out/leaf.key"
    printf '        /// `Receipts/jws/xcode.pem`: the Xcode-shaped self-signed certificate.\n'
    printf '        static let xcode =\n'
    pem_literal "$out/xcode.pem"
    printf '        /// `Receipts/jws/xcode.key`: its private key (ECDSA P-256).\n'
    printf '        static let xcodeKey =\n'
    pem_literal "$out/xcode.key"
    printf '    }\n'
    printf '}\n'
} > "$swift_out"

echo "wrote $out and $swift_out"
