#!/usr/bin/env bash
# Every test, as CI runs them (.ci/run runs the README's command, which runs this):
#   1. the Swift suites (`swift test`);
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
export ORDERS_REQUIRE_POSTGRES=${ORDERS_REQUIRE_POSTGRES:-1} ORDERS_REQUIRE_BROWSER=${ORDERS_REQUIRE_BROWSER:-1}
swift test --disable-xctest "$@"
Scripts/browser-tests.sh
Scripts/check-example.sh
Scripts/schemathesis.sh
Scripts/fuzz.sh all 40
