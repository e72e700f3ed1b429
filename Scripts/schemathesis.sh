#!/usr/bin/env bash
# schemathesis (PyPI) against the OpenAPI document `orders serve` serves, with every check
# (Scripts/schemathesis.toml says which one is left out for which operation, and why), over the
# whole document in four runs: the merchant API with an API key, the financial-data API with an
# access token the owner granted (Scripts/lib/finance_token.py walks the consent sheet for it),
# the token endpoints without one, and every other operation — the public ones — without
# credentials (the fourth run excludes exactly what the first three include, so an operation
# added to the document is tested by one of them). Any finding fails: the document and the
# server must agree.
#
#   Scripts/schemathesis.sh [MAX_EXAMPLES]      # default 500 per operation
#
# Creates a virtual environment in .build-tools/ with a pinned schemathesis, builds `orders`,
# serves a throwaway store holding the shipped test order, an API key, the sample financial data
# and a registered client, and runs.
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
# A webhook of each tracking provider (their path's endpoint; their secrets sign nothing the
# schema can describe, so their bodies are refused 401 — Scripts/schemathesis.toml).
for provider in aftership easypost; do
  printf 'schemathesis %s secret\n' "$provider" > "$work/$provider.secret"
  chmod 600 "$work/$provider.secret"
  url=$("$orders" tracking add --store "$store" --provider "$provider" --order-type order.com.example.shop \
    --secret-file "$work/$provider.secret" 2>/dev/null)
  export "TRACKING_$(echo "$provider" | tr a-z A-Z)=${url##*/}"
done
# Financial data, the owner's password and a client, for the financial-data API.
"$orders" finance import --store "$store" Samples/finance-feed.json >/dev/null
printf 'schemathesis owner password\n' | "$orders" owner set-password --cost 4 --store "$store" >/dev/null
redirect=http://127.0.0.1:9/callback
"$orders" finance clients create --store "$store" --name Schemathesis --redirect-uri "$redirect" \
  --id com.example.schemathesis > "$work/client" 2>/dev/null
secret=$(sed -n 's/^client_secret: //p' "$work/client")
# Every generic event schemathesis sends is within the endpoint's rate (429 is tested elsewhere).
start_server "$work/out" "$work/err" "$orders" serve --store "$store" --port 0 --trust-root "$root" --tracking-rate 100000
base="http://127.0.0.1:$port"
token=$(python3 Scripts/lib/finance_token.py "$base" com.example.schemathesis "$secret" "$redirect" 'schemathesis owner password')
run() {
  "$venv/bin/schemathesis" --config-file Scripts/schemathesis.toml run "$base/api/v1/openapi.json" \
    --max-examples "$examples" --seed 22 --no-color --generation-database none --report-dir "$work/report" "$@"
}
merchant='^/api/'
data='^/finance/v1/(accounts|transactions|history|authorization|background-delivery)'
tokens='^/finance/(token|v1/picked-transactions)$'
echo "schemathesis: the merchant API, $examples examples per operation against $base/api/v1/openapi.json" >&2
run --include-path-regex "$merchant" -H "Authorization: Bearer $(cat "$work/key")"
echo "schemathesis: the financial-data API, with an access token the owner granted" >&2
run --include-path-regex "$data" -H "Authorization: Bearer $token"
echo "schemathesis: the token endpoints (a client's form; codes are single-use secrets)" >&2
run --include-path-regex "$tokens"
echo "schemathesis: every other operation of the document, without credentials" >&2
run --exclude-path-regex "$merchant|$data|$tokens"
