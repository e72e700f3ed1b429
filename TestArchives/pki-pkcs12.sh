#!/usr/bin/env bash
# Adds the order identity (pki/order.pem, pki/order.key, with pki/wwdr.pem) as PKCS#12 files, as
# merchants export it from Keychain Access: pki/order.p12 (OpenSSL 3's default, AES-256 and
# PBKDF2) and pki/order-legacy.p12 (RC2-40 and 3DES, older exports; OpenSSL 3 needs its legacy
# provider). Passphrase of both: wallet-orders. Called by pki.sh; runnable alone on an existing
# pki/ (it adds two files and changes nothing else).
set -euo pipefail
cd "$(dirname "$0")/pki"
openssl pkcs12 -export -in order.pem -inkey order.key -certfile wwdr.pem -passout pass:wallet-orders -out order.p12
openssl pkcs12 -export -legacy -in order.pem -inkey order.key -passout pass:wallet-orders -out order-legacy.p12
