#!/usr/bin/env bash
# Adds TestArchives/pki/wwdr-unmarked-twin.pem: a second certificate for the WWDR CA's key and
# subject, issued by the same root, without the WWDR marker extension — so an order leaf issued
# by the WWDR CA chains through two intermediates, one unsuitable. The signature verifier must
# try each candidate chain (SignatureVerifierTests). Called by pki.sh; runnable alone on an
# existing pki/ (it adds one file and changes nothing else).
set -euo pipefail
cd "$(dirname "$0")/pki"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ca" && touch "$work/ca/index.txt" && echo 2000 > "$work/ca/serial"
cat > "$work/openssl.cnf" <<CNF
[ca]
default_ca = twin_ca
[twin_ca]
dir = $work/ca
database = \$dir/index.txt
new_certs_dir = \$dir
serial = \$dir/serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
preserve = yes
[policy_any]
commonName = optional
organizationalUnitName = optional
organizationName = optional
countryName = optional
[req]
distinguished_name = req_dn
prompt = no
[req_dn]
CN = placeholder
[twin]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF
subject=$(openssl x509 -in wwdr.pem -noout -subject -nameopt compat | sed 's/^subject=//')
openssl req -new -config "$work/openssl.cnf" -key wwdr.key -subj "$subject" -out "$work/twin.csr"
openssl ca -batch -config "$work/openssl.cnf" -cert root.pem -keyfile root.key -in "$work/twin.csr" \
  -out wwdr-unmarked-twin.pem -extensions twin -startdate 20190101000000Z -enddate 20551231235959Z -notext -preserveDN 2>/dev/null
