#!/usr/bin/env bash
# Every test, as CI runs them (.ci/run runs the README's command, which runs this):
#   1. the Swift suites (`swift test`);
#   2. the browser suite (Scripts/browser-tests.sh);
#   3. Examples/ShopBackend, a package depending on this one by path, built and sent requests
#      (Scripts/check-example.sh);
#   4. schemathesis against the served OpenAPI document (Scripts/schemathesis.sh);
#   5. every fuzz target: its regression inputs replayed, then a minute of fuzzing, two at a time
#      (Scripts/fuzz.sh all 60).
# Run it under Scripts/with-postgres.sh for the PostgreSQL rows of 1–3.
#
#   Scripts/test.sh [SWIFT TEST ARGUMENTS…]
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --disable-xctest "$@"
Scripts/browser-tests.sh
Scripts/check-example.sh
Scripts/schemathesis.sh
Scripts/fuzz.sh all 60
