#!/usr/bin/env bash
# The browser suite (Tests/Browser): pytest with selenium and axe-core (PyPI, pinned, in a virtual
# environment under .build-tools/) driving Debian's headless Chromium through chromedriver, and
# standard client libraries (authlib, httpx-sse, standardwebhooks, stripe, easypost), against the real
# `orders serve` — on SQLite, and on PostgreSQL with two instances on one database when
# ORDERS_TEST_POSTGRES is set (Scripts/with-postgres.sh sets it).
#
#   Scripts/browser-tests.sh [PYTEST ARGUMENTS…]
#
# ORDERS_REQUIRE_BROWSER=1 (Scripts/test.sh, hence CI) makes a missing browser, a missing PostgreSQL cluster or any
# skipped test a failure. ORDERS_SCREENSHOTS=DIR writes the pages' screenshots (light and dark,
# narrow and wide) into DIR: `ORDERS_SCREENSHOTS=docs/images Scripts/browser-tests.sh` renews the
# ones docs/finance-web.md shows.
set -euo pipefail
cd "$(dirname "$0")/.."
required=${ORDERS_REQUIRE_BROWSER:-0}
# Pinned. Besides the browser's driver: client libraries written elsewhere, which the suite uses
# as a client developer would (OAuth: authlib; Server-Sent Events: httpx-sse; webhook receivers:
# standardwebhooks and stripe; tracking providers' signatures: easypost).
packages=("selenium==4.51.0" "axe-selenium-python==2.1.6" "pytest==9.2.0" "authlib==1.9.10" "httpx==0.28.1"
  "httpx-sse==0.4.3" "standardwebhooks==1.1.0" "stripe==16.1.0" "requests==2.34.2" "easypost==10.7.0")
venv=.build-tools/browser-$(printf '%s\n' "${packages[@]}" | sha256sum | cut -c1-12)
if [ ! -x "$venv/bin/pytest" ]; then
  echo "browser-tests: installing ${packages[*]} into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${packages[@]}"
fi
for tool in chromium chromedriver; do
  if ! command -v "$tool" >/dev/null; then
    if [ "$required" = 1 ]; then
      echo "browser-tests: $tool is not installed (Scripts/setup.sh installs chromium and chromium-driver)" >&2
      exit 1
    fi
    echo "browser-tests: $tool is not installed: the browser suite is skipped (Scripts/setup.sh installs it)" >&2
    exit 0
  fi
done
swift build --product orders >/dev/null 2>&1 || swift build --product orders
export ORDERS_BINARY="$(swift build --show-bin-path)/orders"
export ORDERS_CHROMIUM="$(command -v chromium)" ORDERS_CHROMEDRIVER="$(command -v chromedriver)"
backends=(sqlite)
if [ -n "${ORDERS_TEST_POSTGRES:-}" ]; then
  backends+=(postgres)
elif [ "$required" = 1 ] || [ "${ORDERS_REQUIRE_POSTGRES:-0}" = 1 ]; then
  echo "browser-tests: ORDERS_TEST_POSTGRES is not set; run under Scripts/with-postgres.sh" >&2
  exit 1
else
  echo "browser-tests: ORDERS_TEST_POSTGRES is not set: PostgreSQL runs skipped (Scripts/with-postgres.sh runs them)" >&2
fi
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT
for backend in "${backends[@]}"; do
  echo "browser-tests: $backend" >&2
  ORDERS_BROWSER_BACKEND=$backend "$venv/bin/pytest" Tests/Browser -p no:cacheprovider -q -rs \
    --junitxml="$report/$backend.xml" "$@"
  if [ "$required" = 1 ]; then
    skipped=$(python3 -c 'import sys, xml.etree.ElementTree as t; print(sum(int(s.get("skipped", 0)) for s in t.parse(sys.argv[1]).iter("testsuite")))' "$report/$backend.xml")
    if [ "$skipped" != 0 ]; then
      echo "browser-tests: $skipped test(s) skipped on $backend; every browser test must run" >&2
      exit 1
    fi
  fi
done
