#!/usr/bin/env bash
# Every test: the Swift suites (`swift test`), then the browser suite (Scripts/browser-tests.sh).
# Run it under Scripts/with-postgres.sh for the PostgreSQL rows of both.
#
#   Scripts/test.sh [SWIFT TEST ARGUMENTS…]
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --disable-xctest "$@"
Scripts/browser-tests.sh
