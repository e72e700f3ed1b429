#!/usr/bin/env bash
# Creates the test PKI in TestArchives/pki: certificates shaped like Apple's (ORDER-FORMAT.md
# appendix), so the same Order Type ID policy applies to them. Called by generate.sh when
# pki/ is missing or with --new-pki; the keys are test-only and committed on purpose.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf pki && mkdir -p pki/ca && cd pki

cp ../pki.cnf openssl.cnf

touch ca/index.txt
echo 1000 > ca/serial
export ORDER_TYPE=unused

key() { openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1.key" 2>/dev/null; }

# issue NAME SUBJECT EXTENSIONS ISSUER START END  (ISSUER "self" for a root)
issue() {
  local name=$1 subject=$2 extensions=$3 issuer=$4 start=$5 end=$6
  key "$name"
  openssl req -new -config openssl.cnf -key "$name.key" -subj "$subject" -out "$name.csr"
  if [ "$issuer" = self ]; then
    openssl ca -batch -config openssl.cnf -selfsign -keyfile "$name.key" -in "$name.csr" -out "$name.pem" \
      -extensions "$extensions" -startdate "$start" -enddate "$end" -notext -preserveDN 2>/dev/null
  else
    openssl ca -batch -config openssl.cnf -cert "$issuer.pem" -keyfile "$issuer.key" -in "$name.csr" -out "$name.pem" \
      -extensions "$extensions" -startdate "$start" -enddate "$end" -notext -preserveDN 2>/dev/null
  fi
  rm "$name.csr"
}

ca_start=20190101000000Z
long_start=20250101000000Z
long_end=20551231235959Z
shop=order.com.example.shop

# The trusted hierarchy: root → WWDR-like intermediate → Order Type ID leaves. The CAs start in
# 2019 so that the expired leaf (2020) sits inside their validity.
issue root "/CN=Wallet Orders Test Root CA/OU=Test Certification Authority/O=wallet-orders tests/C=US" root self $ca_start $long_end
issue wwdr "/CN=Wallet Orders Test WWDR CA/OU=G4/O=wallet-orders tests/C=US" wwdr root $ca_start $long_end
ORDER_TYPE=$shop issue order "/UID=$shop/CN=Order Type ID: $shop/OU=ABCDE12345/O=Example Inc./C=US" order_leaf wwdr $long_start $long_end
# Same order type, another team: a valid signer that must not take over ABCDE12345's orders.
ORDER_TYPE=$shop issue other-team "/UID=$shop/CN=Order Type ID: $shop/OU=ZYXWV98765/O=Other Corp./C=US" order_leaf wwdr $long_start $long_end
# Negative certificates.
ORDER_TYPE=$shop issue expired "/UID=$shop/CN=Order Type ID: $shop/OU=ABCDE12345/O=Example Inc./C=US" order_leaf wwdr 20200101000000Z 20210101000000Z
ORDER_TYPE=order.com.example.other issue other-type "/UID=order.com.example.other/CN=Order Type ID: order.com.example.other/OU=ABCDE12345/O=Example Inc./C=US" order_leaf wwdr $long_start $long_end
ORDER_TYPE=pass.com.example.shop issue pass-type "/UID=pass.com.example.shop/CN=Pass Type ID: pass.com.example.shop/OU=ABCDE12345/O=Example Inc./C=US" pass_leaf wwdr $long_start $long_end
ORDER_TYPE=$shop issue direct "/UID=$shop/CN=Order Type ID: $shop/OU=ABCDE12345/O=Example Inc./C=US" order_leaf root $long_start $long_end
issue wwdr-without-marker "/CN=Wallet Orders Test Intermediate Without Marker/O=wallet-orders tests/C=US" wwdr_without_marker root $long_start $long_end
ORDER_TYPE=$shop issue unmarked-chain "/UID=$shop/CN=Order Type ID: $shop/OU=ABCDE12345/O=Example Inc./C=US" order_leaf wwdr-without-marker $long_start $long_end
# A parallel hierarchy nobody trusts.
issue untrusted-root "/CN=Untrusted Root CA/O=Nobody/C=US" root self $long_start $long_end
issue untrusted-wwdr "/CN=Untrusted WWDR CA/O=Nobody/C=US" wwdr untrusted-root $long_start $long_end
ORDER_TYPE=$shop issue untrusted "/UID=$shop/CN=Order Type ID: $shop/OU=ABCDE12345/O=Example Inc./C=US" order_leaf untrusted-wwdr $long_start $long_end

rm -rf ca openssl.cnf
# A second certificate for the WWDR CA's key, without the marker (candidate chains).
../pki-twin.sh
# The order identity as PKCS#12 files (signing identities, SigningKeyLocationTests).
../pki-pkcs12.sh
