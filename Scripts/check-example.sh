#!/usr/bin/env bash
# Builds Examples/ShopBackend — a shop backend that depends on this package by path, serves the
# Orders web service and the merchant API beside routes of its own — runs it, and sends it
# requests: its own routes save and check an order, the service's answer a device. On SQLite,
# and on PostgreSQL too when ORDERS_TEST_POSTGRES names a cluster (Scripts/with-postgres.sh).
#
#   Scripts/check-example.sh
#   Scripts/with-postgres.sh Scripts/check-example.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
package=Examples/ShopBackend
work=$(mktemp -d)
. Scripts/lib/server.sh
trap 'stop_server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
echo "check-example: building $package (a package of its own: a first build compiles every dependency again, several minutes)" >&2
swift build --package-path "$package" > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
binary="$(swift build --package-path "$package" --show-bin-path)/ShopBackend"

fail() { echo "check-example: $*" >&2; [ -f "$work/err" ] && tail -20 "$work/err" >&2; exit 1; }

# expect STATUS METHOD PATH [curl options…]: the status, and the body in $work/body
expect() {
  local status=$1 method=$2 path=$3
  shift 3
  local got
  got=$(curl -sS -o "$work/body" -w '%{http_code}' -X "$method" "$@" "http://127.0.0.1:$port$path") || fail "$method $path: no answer"
  [ "$got" = "$status" ] || fail "$method $path: $got, expected $status: $(head -c 300 "$work/body")"
}

run() {
  local label=$1
  SHOP_PORT=0 SHOP_STORE="$work/shop.sqlite" SHOP_TRUST_ROOT="$root/TestArchives/pki/root.pem" \
    start_server "$work/out" "$work/err" "$binary" || fail "$label: ShopBackend did not start"

  # The shop's own routes: save (added, then added again: the same bytes), check, an invalid archive.
  expect 200 PUT /shop/orders --data-binary @TestArchives/valid/basic.order
  grep -q '"result":"added"' "$work/body" || fail "$label: PUT /shop/orders did not add: $(cat "$work/body")"
  expect 200 GET /shop/orders/order.com.example.shop/ORDER-123
  grep -q '"result":"exists"' "$work/body" || fail "$label: the order is not there: $(cat "$work/body")"
  expect 404 GET /shop/orders/order.com.example.shop/NO-SUCH-ORDER
  expect 422 PUT /shop/orders --data-binary @TestArchives/invalid/crc-mismatch.order
  grep -q '"code":"store.invalidArchive"' "$work/body" || fail "$label: $(cat "$work/body")"
  # The service's routes beside them, on the same server: a device fetches the order.
  expect 200 GET /wallet/v1/orders/order.com.example.shop/ORDER-123 \
    -H 'Authorization: AppleOrder 8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b'
  cmp -s "$work/body" TestArchives/valid/basic.order || fail "$label: the device got other bytes"
  expect 401 GET /wallet/v1/orders/order.com.example.shop/ORDER-123
  expect 200 GET /health

  stop_server || fail "$label: ShopBackend did not exit 0 on SIGTERM"
  echo "check-example: $label ok" >&2
}

unset ORDERS_DATABASE
run SQLite
if [ -n "${ORDERS_TEST_POSTGRES:-}" ]; then
  database="shop_example_$$"
  psql -q "$ORDERS_TEST_POSTGRES" -c "CREATE DATABASE $database" >/dev/null
  ORDERS_DATABASE=$(printf '%s' "$ORDERS_TEST_POSTGRES" | sed "s|/postgres?|/$database?|")
  export ORDERS_DATABASE
  run PostgreSQL
fi
