#!/usr/bin/env bash
# Adds TestArchives/pki/wwdr-unmarked-twin.pem: a second certificate for the WWDR CA's key and
# subject, issued by the same root, without the WWDR marker extension — so an order leaf issued
# by the WWDR CA chains through two intermediates, one unsuitable. The signature verifier must
# try each candidate chain (CandidateChainTests). Called by pki.sh; runnable alone on an existing
# pki/ (it adds one file and changes nothing else). Same configuration as pki.sh (pki.cnf).
set -euo pipefail
cd "$(dirname "$0")"
pki=$PWD/pki
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp pki.cnf "$work/openssl.cnf"
cd "$work"
mkdir ca && touch ca/index.txt && echo 2000 > ca/serial
export ORDER_TYPE=unused
subject=$(openssl x509 -in "$pki/wwdr.pem" -noout -subject -nameopt compat | sed 's/^subject=//')
openssl req -new -config openssl.cnf -key "$pki/wwdr.key" -subj "$subject" -out twin.csr
openssl ca -batch -config openssl.cnf -cert "$pki/root.pem" -keyfile "$pki/root.key" -in twin.csr \
  -out "$pki/wwdr-unmarked-twin.pem" -extensions wwdr_without_marker -startdate 20190101000000Z \
  -enddate 20551231235959Z -notext -preserveDN 2>/dev/null
