# The helpers generate.sh and strict.sh build archives with. Expects: here (TestArchives/),
# ORDERS (the built orders), work (a scratch folder), table (the expectations file),
# SIGNING_TIME.

# expect FILE OPTIONS VERDICT ERRORS [WARNINGS] → a line of the expectations table
expect() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:--}" >> $table; }

# pack SOURCE-DIR OUT [--cert NAME] [orders pack options...]
pack() {
  local src=$1 out=$2 cert=order chain=wwdr
  shift 2
  if [ "${1:-}" = --cert ]; then cert=$2; shift 2; fi
  if [ "${1:-}" = --chain ]; then chain=$2; shift 2; fi
  local chain_args=()
  [ "$chain" != none ] && chain_args=(--intermediate "pki/$chain.pem")
  "$ORDERS" pack "$src" --certificate "pki/$cert.pem" --key "pki/$cert.key" "${chain_args[@]}" \
    --signing-time "$SIGNING_TIME" -o "$out" "$@" >/dev/null 2>&1
}

# stage NAME SOURCE → a scratch copy of sources/SOURCE
stage() { rm -rf "$work/$1"; cp -R "sources/$2" "$work/$1"; echo "$work/$1"; }

# manifest DIR [python-expression-on-d] → DIR/manifest.json over every file but manifest/signature
manifest() {
  python3 - "$1" "${2:-}" <<'PY'
import hashlib, json, os, sys
root, edit = sys.argv[1], sys.argv[2]
d = {}
for folder, _, files in os.walk(root):
    for name in files:
        path = os.path.relpath(os.path.join(folder, name), root)
        if path in ("manifest.json", "signature"):
            continue
        d[path] = hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest()
if edit:
    exec(edit)
if isinstance(d, dict):
    d = json.dumps(dict(sorted(d.items())), indent=2)
open(os.path.join(root, "manifest.json"), "wb").write(d.encode() if isinstance(d, str) else d)
PY
}

# cms DIR [openssl cms -sign options...] → DIR/signature signed by the order leaf
cms() {
  local dir=$1
  shift
  openssl cms -sign -binary -md sha256 -outform DER -in "$dir/manifest.json" -out "$dir/signature" \
    -signer pki/order.pem -inkey pki/order.key -certfile pki/wwdr.pem "$@"
}

# zipdir DIR OUT [zip options...] → zip of DIR's contents, sorted, no directory entries
zipdir() {
  local dir=$1 out=$2
  shift 2
  find "$dir" -exec touch -h -d '2026-01-15 10:00:00' {} +
  (cd "$dir" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort | zip -X -D -q "$@" "$here/$out" -@)
}

# edit FILE PYTHON → modify a JSON file in place (the object is `d`)
edit() {
  python3 - "$1" "$2" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
d = json.load(open(path))
exec(code)
json.dump(d, open(path, "w"), indent=2, ensure_ascii=False)
PY
}

# pyzip OUT PYTHON → a hand-made zip (`z` is an open ZipFile, `src` the small order's files)
pyzip() {
  python3 - "$1" "$2" "$here/sources/small" <<'PY'
import os, sys, zipfile, warnings
warnings.simplefilter("ignore")
out, code, small = sys.argv[1], sys.argv[2], sys.argv[3]
src = {name: open(os.path.join(small, name), "rb").read() for name in os.listdir(small)}
def info(name, method=zipfile.ZIP_DEFLATED):
    i = zipfile.ZipInfo(name, date_time=(2026, 1, 15, 10, 0, 0))
    i.compress_type = method
    i.external_attr = 0o100644 << 16
    return i
with zipfile.ZipFile(out, "w") as z:
    exec(code)
PY
}
