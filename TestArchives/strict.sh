#!/usr/bin/env bash
# The archives of issue 56's refusals: files named as images that are not images, names that
# read as another, keys with control characters, amounts that are no finite decimal, schema
# version 2. generate.sh runs it with everything else; run alone, it rewrites only these
# archives and their lines of expectations.tsv (the rest need tools not every machine has).
#
#   TestArchives/strict.sh
set -euo pipefail
if [ -z "${STRICT_FROM_GENERATE:-}" ]; then
  cd "$(dirname "$0")"
  here=$(pwd)
  (cd .. && swift build --product orders >/dev/null)
  ORDERS="$(cd .. && swift build --show-bin-path)/orders"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  SIGNING_TIME=2026-01-15T10:00:00Z
  export TZ=UTC
  all=expectations.tsv
  table="$work/strict.tsv"
  : > "$table"
  . ./lib.sh
fi

echo "invalid archives: images, names, keys, amounts (issue 56)"
d=$(stage image-text small); printf 'not a png' > "$d/logo.png"; pack "$d" invalid/order-image-not-an-image.order
expect invalid/order-image-not-an-image.order - invalid order.invalidImage
d=$(stage image-svg small); printf '<svg xmlns="http://www.w3.org/2000/svg"/>' > "$d/item.png"
pack "$d" invalid/order-image-svg.order
expect invalid/order-image-svg.order - invalid order.invalidImage
d=$(stage image-own small); edit "$d/order.json" 'd["merchant"]["logo"] = "order.json"'
pack "$d" invalid/order-image-package-file.order
expect invalid/order-image-package-file.order - invalid order.imageName
d=$(stage names-case small); cp "$d/logo.png" "$d/LOGO.png"; pack "$d" invalid/names-case.order
expect invalid/names-case.order - invalid archive.ambiguousName
pyzip invalid/names-bidi.order '
for name, data in sorted(src.items()): z.writestr(info(name), data)
z.writestr(info("invoice\u202Efdp.exe"), b"x")'
expect invalid/names-bidi.order - invalid archive.unsafePath
d=$(stage key-control small); edit "$d/order.json" 'd["note\u0000"] = "hidden"'
pack "$d" invalid/order-key-control-character.order
expect invalid/order-key-control-character.order - invalid order.invalidKey
d=$(stage amount-overflow small)
python3 - "$d/order.json" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
# A JSON number no writer of Python's makes: the literal goes in as text.
text = text.replace('"amount": "49.00"', '"amount": 1e999999', 1)
assert "1e999999" in text
open(path, "w").write(text)
PY
pack "$d" invalid/order-amount-overflow.order
expect invalid/order-amount-overflow.order - invalid order.invalidValue order.numericAmount
d=$(stage schema-2 small); edit "$d/order.json" 'd["schemaVersion"] = 2; del d["payment"]'
pack "$d" invalid/order-schema-version-2.order
expect invalid/order-schema-version-2.order - invalid order.invalidValue

if [ -z "${STRICT_FROM_GENERATE:-}" ]; then
  # These archives' lines replace their earlier ones, in place of the first of them or at the end.
  python3 - "$all" "$table" <<'PY'
import sys
table, new = sys.argv[1], sys.argv[2]
fresh = open(new).read().splitlines()
names = {line.split("\t")[0] for line in fresh}
lines = open(table).read().splitlines()
kept = [line for line in lines if line.startswith("#") or line.split("\t")[0] not in names]
at = next((i for i, line in enumerate(lines) if not line.startswith("#") and line.split("\t")[0] in names), None)
if at is None:
    kept += fresh
else:
    before = sum(1 for line in lines[:at] if line.startswith("#") or line.split("\t")[0] not in names)
    kept[before:before] = fresh
open(table, "w").write("\n".join(kept) + "\n")
PY
  echo "wrote $(wc -l < "$table") expectations"
fi
