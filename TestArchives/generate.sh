#!/usr/bin/env bash
# Regenerates the test archives and expectations.tsv.
#
#   TestArchives/generate.sh            # archives from the committed PKI and sources
#   TestArchives/generate.sh --new-pki  # also new keys and certificates (changes every archive)
#
# Archives are built with the project's own `orders pack`, with the openssl CLI (the signature
# variants real producers emit), and, for hostile containers no sane tool writes, with `zip` and
# Python's zipfile; hostile.py derives ambiguous layouts and malleated signatures from the valid
# archives at the end. Each archive's expected verdict is written by hand right where it is made.
# Requires: swift, openssl, zip, unzip, python3, and for the archives of other writers hostile.py
# makes: java (jar), go, 7-Zip (7zz; Debian packages default-jdk-headless, golang-go, 7zip).
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)

[ "${1:-}" = --new-pki ] || [ ! -f pki/root.pem ] && ./pki.sh
python3 sources.py

(cd .. && swift build --product orders >/dev/null)
ORDERS="$(cd .. && swift build --show-bin-path)/orders"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf valid invalid && mkdir -p valid invalid

SIGNING_TIME=2026-01-15T10:00:00Z
export TZ=UTC

table=expectations.tsv
cat > $table <<'HEAD'
# Expected verdicts, read by the tests (library and CLI). Columns, tab-separated:
# file	options (for `orders verify`, "-" for none)	verdict	error codes ("-" for none)	warning codes ("-" for none)
# Every run trusts pki/root.pem in addition to Apple's roots. Code lists are sets, comma-separated.
HEAD
. ./lib.sh

echo "valid archives"
pack sources/basic valid/basic.order
expect valid/basic.order - valid -
expect valid/basic.order "--at 2024-06-01T00:00:00Z" invalid signature.certificateExpired
pack sources/small valid/stored.order --compression stored
expect valid/stored.order - valid -
pack sources/small valid/key-id.order --signer-id key-id
expect valid/key-id.order - valid -
pack sources/full valid/full.order
expect valid/full.order - valid -
pack sources/localized valid/localized.order
expect valid/localized.order - valid -

d=$(stage cms-ski small); manifest "$d"; cms "$d" -keyid; zipdir "$d" valid/openssl-cms-ski.order
expect valid/openssl-cms-ski.order - valid -
d=$(stage cms-noattr small); manifest "$d"; cms "$d" -noattr; zipdir "$d" valid/openssl-cms-noattr.order
expect valid/openssl-cms-noattr.order - valid -
expect valid/openssl-cms-noattr.order --at-signing-time invalid signature.missingSigningTime
d=$(stage cms-ber small); manifest "$d"; cms "$d"
# Re-encode the outer ContentInfo, [0] and SignedData with indefinite lengths: valid BER, as
# streaming producers write it.
python3 - "$d/signature" <<'PY'
import sys

def element(data, at):
    """(tag, content start, end) of the DER element at `at`."""
    tag, length, at = data[at], data[at + 1], at + 2
    if length & 0x80:
        count = length & 0x7F
        length, at = int.from_bytes(data[at:at + count], "big"), at + count
    return tag, at, at + length

def indefinite(tag, content):
    return bytes([tag, 0x80]) + content + b"\0\0"

data = open(sys.argv[1], "rb").read()
_, info_start, _ = element(data, 0)                       # ContentInfo
_, _, oid_end = element(data, info_start)                 #   contentType
_, explicit_start, _ = element(data, oid_end)             #   [0] EXPLICIT
_, signed_start, signed_end = element(data, explicit_start)  # SignedData
signed = indefinite(0x30, data[signed_start:signed_end])
open(sys.argv[1], "wb").write(indefinite(0x30, data[info_start:oid_end] + indefinite(0xA0, signed)))
PY
zipdir "$d" valid/openssl-cms-ber-indefinite-length.order
expect valid/openssl-cms-ber-indefinite-length.order - valid -
d=$(stage smime small); manifest "$d"
openssl smime -sign -binary -md sha256 -outform DER -in "$d/manifest.json" -out "$d/signature" \
  -signer pki/order.pem -inkey pki/order.key -certfile pki/wwdr.pem
zipdir "$d" valid/openssl-smime.order
expect valid/openssl-smime.order - valid -

d=$(stage bom small); mkdir "$d/images"; mv "$d/item.png" "$d/images/item.png"
edit "$d/order.json" 'd["lineItems"][0]["image"] = "images/item.png"'
manifest "$d" 'd = b"\xef\xbb\xbf" + json.dumps({k: v.upper() for k, v in d.items()}).encode()'
cms "$d"; zipdir "$d" valid/manifest-bom-escaped-slashes.order
expect valid/manifest-bom-escaped-slashes.order - valid - manifest.byteOrderMark

d=$(stage warnings small)
edit "$d/order.json" '
d["payment"]["total"]["amount"] = 49.00
d["lineItems"][0]["quantity"] = "2"
d["merchant"]["logo"] = "logo"
d["giftMessage"] = "Enjoy!"
del d["webServiceURL"]'
pack "$d" valid/warnings.order
expect valid/warnings.order - valid - order.numericAmount,order.numericString,order.resourceWithoutExtension,order.tokenWithoutWebService,order.unknownKey

d=$(stage dirs localized); manifest "$d"; cms "$d"; find "$d" -exec touch -h -d '2026-01-15 10:00:00' {} +
(cd "$d" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort | zip -X -q "$here/valid/directory-entries.order" -@)
expect valid/directory-entries.order - valid -

pack sources/small valid/other-team.order --cert other-team
expect valid/other-team.order - valid -

pack sources/small invalid/expired-certificate.order --cert expired --signing-time 2020-06-01T00:00:00Z
expect invalid/expired-certificate.order - invalid signature.certificateExpired
expect invalid/expired-certificate.order --at-signing-time valid -

echo "invalid archives: container"
printf 'this is not a zip archive\n' > invalid/not-a-zip.order
expect invalid/not-a-zip.order - invalid archive.notZip
: > invalid/empty.order
expect invalid/empty.order - invalid archive.notZip
head -c 2000 valid/basic.order > invalid/truncated.order
expect invalid/truncated.order - invalid archive.corrupt
python3 - valid/stored.order invalid/crc-mismatch.order <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b'"orderIdentifier"')
data[at + 1] ^= 0x20   # flips a letter's case: same size, wrong CRC
open(sys.argv[2], "wb").write(data)
PY
expect invalid/crc-mismatch.order - invalid archive.corrupt
pyzip invalid/zip-bomb.order 'for n in range(5): z.writestr(info(f"bomb{n}.bin"), bytes(15 << 20))'
expect invalid/zip-bomb.order - invalid archive.tooLarge
pyzip invalid/zip-bomb-lying-sizes.order 'z.writestr(info("order.json"), bytes(20 << 20))'
python3 - invalid/zip-bomb-lying-sizes.order <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<I", data, 22, 1000)                          # local header: uncompressed size
struct.pack_into("<I", data, data.find(b"PK\x01\x02") + 24, 1000)  # central directory: same
open(sys.argv[1], "wb").write(data)
PY
expect invalid/zip-bomb-lying-sizes.order - invalid archive.corrupt
pyzip invalid/entry-too-large.order 'z.writestr(info("order.json"), bytes(17 << 20))'
expect invalid/entry-too-large.order - invalid archive.entryTooLarge
pyzip invalid/too-many-entries.order 'for n in range(300): z.writestr(info(f"f{n}.txt"), b"x")'
expect invalid/too-many-entries.order - invalid archive.tooManyEntries
pyzip invalid/path-traversal.order '
for name, data in sorted(src.items()): z.writestr(info(name), data)
z.writestr(info("../evil.sh"), b"#!/bin/sh\n")'
expect invalid/path-traversal.order - invalid archive.unsafePath
pyzip invalid/unsafe-paths.order '
for name, data in sorted(src.items()): z.writestr(info(name), data)
for name in ("/etc/evil", "images\\logo.png", "C:/evil.txt", "a//b.txt"): z.writestr(info(name), b"x")'
expect invalid/unsafe-paths.order - invalid archive.unsafePath
pyzip invalid/duplicate-entry.order '
for name, data in sorted(src.items()): z.writestr(info(name), data)
z.writestr(info("order.json"), b"{}")'
expect invalid/duplicate-entry.order - invalid archive.duplicateEntry
pyzip invalid/bzip2-entry.order 'z.writestr(info("order.json", zipfile.ZIP_BZIP2), src["order.json"])'
expect invalid/bzip2-entry.order - invalid archive.unsupportedCompression
d=$(stage encrypted small); manifest "$d"; cms "$d"; zipdir "$d" invalid/encrypted-entry.order -P secret
expect invalid/encrypted-entry.order - invalid archive.encryptedEntry
d=$(stage symlink small); ln -s /etc/passwd "$d/passwd"; manifest "$d"; cms "$d"; zipdir "$d" invalid/symbolic-link.order -y
expect invalid/symbolic-link.order - invalid archive.symbolicLink
d=$(stage ds-store small); manifest "$d"; cms "$d"; printf 'Bud1' > "$d/.DS_Store"; zipdir "$d" invalid/ds-store.order
expect invalid/ds-store.order - invalid archive.metadataFile
d=$(stage macosx small); manifest "$d"; cms "$d"; mkdir "$d/__MACOSX"; printf 'x' > "$d/__MACOSX/._order.json"
zipdir "$d" invalid/macosx-folder.order
expect invalid/macosx-folder.order - invalid archive.metadataFile
d=$(stage nested small); manifest "$d"; cms "$d"; mkdir "$work/nested-root"; mv "$d" "$work/nested-root/MyOrder"
zipdir "$work/nested-root" invalid/nested-folder.order
expect invalid/nested-folder.order - invalid archive.nestedRoot
d=$(stage no-signature small); manifest "$d"; zipdir "$d" invalid/missing-signature.order
expect invalid/missing-signature.order - invalid archive.missingFile
d="$work/pass"; mkdir -p "$d"
printf '{"formatVersion":1,"passTypeIdentifier":"pass.com.example.shop","serialNumber":"1"}\n' > "$d/pass.json"
manifest "$d" 'd = {k: hashlib.sha1(open(os.path.join(root, k), "rb").read()).hexdigest() for k in d}'
openssl cms -sign -binary -md sha256 -outform DER -in "$d/manifest.json" -out "$d/signature" \
  -signer pki/pass-type.pem -inkey pki/pass-type.key -certfile pki/wwdr.pem
zipdir "$d" invalid/wallet-pass.order
expect invalid/wallet-pass.order - invalid archive.missingFile,manifest.unsupportedDigest,signature.notOrderTypeCertificate

echo "invalid archives: manifest"
d=$(stage manifest-json small); manifest "$d" 'd = "{\"order.json\": \"" + d["order.json"] + "\",}"'; cms "$d"
zipdir "$d" invalid/manifest-invalid-json.order
expect invalid/manifest-invalid-json.order - invalid manifest.invalidJSON
d=$(stage manifest-missing small); printf 'gift note\n' > "$d/note.txt"; manifest "$d"; cms "$d"; rm "$d/note.txt"
zipdir "$d" invalid/manifest-missing-entry.order
expect invalid/manifest-missing-entry.order - invalid manifest.missingEntry
d=$(stage manifest-unlisted small); manifest "$d"; cms "$d"; printf 'unsigned\n' > "$d/extra.txt"
zipdir "$d" invalid/manifest-unlisted-file.order
expect invalid/manifest-unlisted-file.order - invalid manifest.unlistedFile
d=$(stage manifest-hash small); manifest "$d"; cms "$d"; cp sources/full/logo@2x.png "$d/logo.png"
zipdir "$d" invalid/manifest-hash-mismatch.order
expect invalid/manifest-hash-mismatch.order - invalid manifest.hashMismatch
d=$(stage manifest-sha1 small)
manifest "$d" 'd = {k: hashlib.sha1(open(os.path.join(root, k), "rb").read()).hexdigest() for k in d}'; cms "$d"
zipdir "$d" invalid/manifest-sha1.order
expect invalid/manifest-sha1.order - invalid manifest.unsupportedDigest

echo "invalid archives: signature"
d=$(stage sig-garbage small); manifest "$d"; head -c 512 /dev/zero | tr '\0' 'x' > "$d/signature"
zipdir "$d" invalid/signature-garbage.order
expect invalid/signature-garbage.order - invalid signature.invalidCMS
d=$(stage sig-attached small); manifest "$d"; cms "$d" -nodetach; zipdir "$d" invalid/signature-attached-content.order
expect invalid/signature-attached-content.order - invalid signature.invalidCMS
d=$(stage sig-two small); manifest "$d"; cms "$d" -signer pki/other-team.pem -inkey pki/other-team.key
zipdir "$d" invalid/signature-two-signers.order
expect invalid/signature-two-signers.order - invalid signature.invalidCMS
d=$(stage sig-sha1 small); manifest "$d"
openssl cms -sign -binary -md sha1 -outform DER -in "$d/manifest.json" -out "$d/signature" \
  -signer pki/order.pem -inkey pki/order.key -certfile pki/wwdr.pem
zipdir "$d" invalid/signature-sha1.order
expect invalid/signature-sha1.order - invalid signature.unsupportedDigest
d=$(stage sig-mismatch small); manifest "$d"; cms "$d"; printf 'late\n' > "$d/note.txt"; manifest "$d"
zipdir "$d" invalid/signature-mismatch.order
expect invalid/signature-mismatch.order - invalid signature.mismatch
d=$(stage sig-nocerts small); manifest "$d"; cms "$d" -nocerts; zipdir "$d" invalid/signature-without-signer-certificate.order
expect invalid/signature-without-signer-certificate.order - invalid signature.untrustedChain
pack sources/small invalid/untrusted-chain.order --cert untrusted --chain untrusted-wwdr
expect invalid/untrusted-chain.order - invalid signature.untrustedChain
pack sources/small invalid/pass-type-certificate.order --cert pass-type
expect invalid/pass-type-certificate.order - invalid signature.notOrderTypeCertificate
pack sources/small invalid/intermediate-without-marker.order --cert unmarked-chain --chain wwdr-without-marker
expect invalid/intermediate-without-marker.order - invalid signature.notOrderTypeCertificate
pack sources/small invalid/chain-too-short.order --cert direct --chain none
expect invalid/chain-too-short.order - invalid signature.notOrderTypeCertificate
pack sources/small invalid/other-type-certificate.order --cert other-type
expect invalid/other-type-certificate.order - invalid signature.typeIdentifierMismatch

echo "invalid archives: order.json"
d=$(stage order-json small); head -c 300 sources/small/order.json > "$d/order.json"; pack "$d" invalid/order-invalid-json.order
expect invalid/order-invalid-json.order - invalid order.invalidJSON
d=$(stage order-deep small); python3 -c 'print("[" * 100000 + "]" * 100000)' > "$d/order.json"; pack "$d" invalid/order-deeply-nested.order
expect invalid/order-deeply-nested.order - invalid order.invalidJSON
d=$(stage order-missing small); edit "$d/order.json" 'del d["orderIdentifier"]; del d["merchant"]["displayName"]'
pack "$d" invalid/order-missing-keys.order
expect invalid/order-missing-keys.order - invalid order.missingKey
d=$(stage order-values small)
edit "$d/order.json" '
d["status"] = "shipped"
d["fulfillments"][0]["status"] = "lost"
d["payment"]["total"]["currency"] = "euro"
d["lineItems"][0]["price"]["amount"] = "12,50"
d["webServiceURL"] = "http://shop.example.com/wallet/"
d["authenticationToken"] = "short"'
pack "$d" invalid/order-invalid-values.order
expect invalid/order-invalid-values.order - invalid order.invalidValue
d=$(stage order-dates small)
edit "$d/order.json" '
d["updatedAt"] = "2026-01-14T09:30:00Z"
d["fulfillments"][0]["estimatedDeliveryAt"] = "2026-01-17 18:00"'
pack "$d" invalid/order-invalid-dates.order
expect invalid/order-invalid-dates.order - invalid order.invalidDate
d=$(stage order-resource small); rm "$d/logo.png"; pack "$d" invalid/order-missing-resource.order
expect invalid/order-missing-resource.order - invalid order.missingResource
d=$(stage strings-invalid localized); printf '"MERCHANT_NAME" = "Example Shop"\n"STATUS_SHIPPED" = ;\n' > "$d/en.lproj/order.strings"
pack "$d" invalid/order-invalid-strings.order
expect invalid/order-invalid-strings.order - invalid order.invalidStrings
d=$(stage strings-mismatch localized); printf '"MERCHANT_NAME" = "Example Shop";\n"STATUS_DELIVERED" = "Delivered";\n' > "$d/en.lproj/order.strings"
pack "$d" invalid/order-strings-mismatch.order
expect invalid/order-strings-mismatch.order - invalid order.stringsMismatch
d=$(stage l10n-name localized); mv "$d/en.lproj" "$d/english.lproj"; pack "$d" invalid/order-invalid-localization.order
expect invalid/order-invalid-localization.order - invalid order.invalidLocalization
d=$(stage l10n-mismatch localized); rm "$d/de.lproj/banner.png"; pack "$d" invalid/order-localization-mismatch.order
expect invalid/order-localization-mismatch.order - invalid order.localizationMismatch,order.missingResource
d=$(stage order-control small); edit "$d/order.json" 'd["orderIdentifier"] = "ORDER\u0000-NUL"'
pack "$d" invalid/order-control-characters.order
expect invalid/order-control-characters.order - invalid order.invalidValue
d=$(stage order-every small)
edit "$d/order.json" '
del d["orderType"]
d["createdAt"] = "yesterday"
d["merchant"]["url"] = "not a url"
d["lineItems"][0]["image"] = "missing.png"
d["fulfillments"].append({"fulfillmentType": "pickup", "fulfillmentIdentifier": "P-1", "status": "readyForPickup", "location": {"latitude": 123, "longitude": 8}})'
pack "$d" invalid/order-every-problem.order
expect invalid/order-every-problem.order - invalid order.invalidDate,order.invalidValue,order.missingKey,order.missingResource

STRICT_FROM_GENERATE=1 . ./strict.sh

echo "hostile layouts and signatures, derived from the valid archives without re-signing"
python3 hostile.py >> $table

echo "wrote $(grep -vc '^#' $table) expectations for $(ls valid invalid | grep -c '\.order$') archives"
