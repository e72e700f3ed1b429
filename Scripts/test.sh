#!/usr/bin/env bash
# Every test, as CI runs them (.ci/run runs the README's command, which runs this):
#   0. the format: `swift format lint --strict` with the committed .swift-format;
#   1. the Swift suites (`swift test`), then the latency tests each in a process of its own
#      (Scripts/alone-tests.sh);
#   2. the browser suite (Scripts/browser-tests.sh);
#   3. Examples/ShopBackend, a package depending on this one by path, built and sent requests
#      (Scripts/check-example.sh);
#   4. schemathesis against the served OpenAPI document (Scripts/schemathesis.sh);
#   5. every fuzz target: its regression inputs replayed, then 40 seconds of fuzzing, two at a time
#      (Scripts/fuzz.sh all 40).
# Run it under Scripts/with-postgres.sh for the PostgreSQL rows of 1–3 (the README's test command
# does). Every test must run: a missing PostgreSQL cluster, a missing browser or a skipped test is a
# failure here, as in CI, unless ORDERS_REQUIRE_POSTGRES=0 or ORDERS_REQUIRE_BROWSER=0 say
# otherwise (a plain `swift test` runs what it can and says what it skipped).
#
#   Scripts/test.sh [SWIFT TEST ARGUMENTS…]
set -euo pipefail
cd "$(dirname "$0")/.."
# Every test runs from a folder named wallet-orders, as a clone of the repository is named: a test
# that found a fixed secret, `wallet-orders`, in a store keeping the key file's path passed in CI's
# folder and failed in a clone (issue 52). A checkout named otherwise runs this script from a copy
# of itself, .build-wallet-orders/wallet-orders (rsync copies changed files only, so the copy's own
# build stays incremental); ORDERS_TEST_IN_PLACE=1 runs where it is.
if [ "$(basename "$PWD")" != wallet-orders ] && [ "${ORDERS_TEST_IN_PLACE:-0}" != 1 ]; then
  copy=.build-wallet-orders/wallet-orders
  mkdir -p "$copy"
  # What git ignores (build folders at any depth, caches) and .git stay out of the copy.
  rsync -a --delete --exclude='.build/' --exclude='.build[-_]*/' --exclude='.swiftpm/' --exclude='.schemathesis/' \
    --exclude='__pycache__/' --exclude='/.git' ./ "$copy/"
  echo "test.sh: running from $copy, a copy named as the repository is" >&2
  exec "$copy/Scripts/test.sh" "$@"
fi
export ORDERS_REQUIRE_POSTGRES=${ORDERS_REQUIRE_POSTGRES:-1} ORDERS_REQUIRE_BROWSER=${ORDERS_REQUIRE_BROWSER:-1}
# At most 48 tests at once (Swift Testing starts every test at once otherwise). Each running test
# holds a store or two — five descriptors an SQLite store, more with PostgreSQL's sockets — and
# past ~1,365 open descriptors Foundation's `Process.run()` on Linux reads beyond the end of a
# directory buffer while listing /proc/self/fd (it copies each entry as a whole `dirent`): the
# test process crashed in it, 2 runs of 2, at ~1,440. Width 48–64 keeps the peak near 1,100 and
# ran the SQLite suites faster than no limit (96 s against 122 s: fewer tests contend for two cores).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-48}
# step NAME COMMAND…: says what runs, then how long it took (and the whole run's time at the end).
started=$SECONDS
step() {
  local name=$1 begun=$SECONDS
  shift
  echo "test.sh: $name…" >&2
  "$@"
  local took=$((SECONDS - begun))
  echo "test.sh: $name took $((took / 60)) min $((took % 60)) s" >&2
}
step "the format (swift format lint --strict)" swift format lint --strict -r Sources Tests Snippets Package.swift
step "the Swift suites (swift test; building the tests takes a few minutes after the quick start's first command)" swift test --disable-xctest "$@"
step "the latency tests, each alone in its process (Scripts/alone-tests.sh)" Scripts/alone-tests.sh
step "the browser suite (headless Chromium, nginx; SQLite, then PostgreSQL)" Scripts/browser-tests.sh
step "the example package (Examples/ShopBackend: its own build, then requests)" Scripts/check-example.sh
step "schemathesis against the served OpenAPI document" Scripts/schemathesis.sh
step "every fuzz target (regressions, then 40 s each, two at a time)" Scripts/fuzz.sh all 40
total=$((SECONDS - started))
echo "test.sh: every test passed in $((total / 60)) min $((total % 60)) s" >&2
