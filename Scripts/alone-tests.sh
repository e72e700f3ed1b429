#!/usr/bin/env bash
# The Swift tests that measure latency, each in a process that runs nothing else: in `swift test`
# they would share two cores with some 600 other tests, and their figures would measure those.
# They run only where ORDERS_ALONE is set (a plain `swift test` lists them as skipped, naming this
# script). Builds the tests if needed; fails unless each filter ran a test and it passed.
#
#   Scripts/alone-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
bundle="$(swift build --show-bin-path)/wallet-ordersPackageTests.xctest"
for suite in StorageOffThePoolTests; do
  output=$(ORDERS_ALONE=1 "$bundle" --testing-library swift-testing --filter "$suite" 2>&1) || {
    echo "$output" >&2
    exit 1
  }
  echo "$output" | grep -E "^storage off|passed after" | grep -v "Suite\|Test run" >&2 || true
  if ! echo "$output" | grep -Eq "Test run with [1-9][0-9]* tests? (in [0-9]+ suites? )?passed"; then
    echo "$output" >&2
    echo "alone-tests.sh: $suite ran no test" >&2
    exit 1
  fi
  # A suite that measures each backend names it in its figures: none for PostgreSQL where CI
  # requires it means the cluster was not given, a skipped test that must fail.
  if [ "${ORDERS_REQUIRE_POSTGRES:-0}" = 1 ] && ! echo "$output" | grep -q "(postgresql)"; then
    echo "alone-tests.sh: $suite measured no PostgreSQL store (ORDERS_REQUIRE_POSTGRES=1)" >&2
    exit 1
  fi
done
