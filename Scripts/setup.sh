#!/usr/bin/env bash
# Installs the Debian packages wallet-orders needs, if any are missing. Safe to run repeatedly.
#   libzip-dev, zlib1g-dev, libssl-dev, libsqlite3-dev, pkg-config: the system libraries the package links
#   openssl, zip, unzip, python3: the tests, TestArchives/generate.sh and the benchmark comparison
#   python3-venv, curl: Scripts/schemathesis.sh (schemathesis from PyPI in a virtual environment)
#     and Scripts/check-example.sh
#   postgresql: initdb and pg_ctl for the throwaway cluster of Scripts/with-postgres.sh (the tests never
#     use the cluster Debian's package may create and start for itself)
#   pgbouncer: the connection pooler Scripts/with-postgres.sh starts in front of that cluster, once in
#     session and once in transaction pooling mode (never Debian's own instance)
#   chromium, chromium-driver: the browser suite (Scripts/browser-tests.sh) drives headless Chromium
#   wrk: the HTTP benchmarks (Benchmarks/run.sh serve, scaleout, logflood, pages)
#   fonts-noto-cjk: Japanese and Chinese text in Chromium's screenshots (`orders preview --png`, the
#     browser suite's screenshot per language); without it they show empty boxes
#   nginx: the deployment test (Tests/Browser/test_deployment.py) puts docs/deployment.md's site in
#     front of `orders serve` (never Debian's own instance)
#   rsync: Scripts/test.sh copies a checkout not named wallet-orders into one that is, and runs there
set -euo pipefail
packages=(libzip-dev zlib1g-dev libssl-dev libsqlite3-dev pkg-config openssl zip unzip python3 python3-venv curl postgresql
  pgbouncer chromium chromium-driver fonts-noto-cjk wrk nginx softhsm2 libengine-pkcs11-openssl rsync)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
