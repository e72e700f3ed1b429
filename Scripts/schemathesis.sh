#!/usr/bin/env bash
# schemathesis (PyPI) against the OpenAPI document `orders serve` serves, with every check
# (Scripts/schemathesis.toml says which one is left out for which operation, and why). Any
# finding fails: the document and the server must agree.
#
#   Scripts/schemathesis.sh [MAX_EXAMPLES]      # default 500 per operation
#
# Creates a virtual environment in .build-tools/ with a pinned schemathesis, builds `orders`,
# serves a throwaway store holding the shipped test order and an API key, and runs.
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-500}
version=4.32.5
venv=.build-tools/schemathesis-$version
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "schemathesis: installing schemathesis $version into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version"
fi
swift build --product orders >/dev/null
orders="$(swift build --show-bin-path)/orders"
work=$(mktemp -d)
. Scripts/lib/server.sh
trap 'stop_server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
store="$work/store.sqlite"
root=TestArchives/pki/root.pem
"$orders" keys create --store "$store" --order-type order.com.example.shop > "$work/key" 2>/dev/null
"$orders" add --yes --store "$store" --trust-root "$root" TestArchives/valid/basic.order >/dev/null
start_server "$work/out" "$work/err" "$orders" serve --store "$store" --port 0 --trust-root "$root"
echo "schemathesis: $examples examples per operation against http://127.0.0.1:$port/api/v1/openapi.json" >&2
"$venv/bin/schemathesis" --config-file Scripts/schemathesis.toml run "http://127.0.0.1:$port/api/v1/openapi.json" \
  -H "Authorization: Bearer $(cat "$work/key")" --max-examples "$examples" --seed 22 --no-color \
  --generation-database none --report-dir "$work/report"
