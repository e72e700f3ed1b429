#!/usr/bin/env bash
# Verification speed of a typical order (TestArchives/valid/basic.order: order.json + two ~48 KB
# images, ~100 KB), measured three ways in one run and compared with the obvious alternative:
#
#   library   OrderVerifier in process, via ordo-one/benchmark (p50 throughput and allocations)
#   CLI       `orders verify` (release build), one process given the archive N times
#   script    per archive: `unzip` to a temporary folder, `sha256sum -c` of the manifest's entries,
#             `openssl cms -verify -purpose any` against the root
#
# The script does *less* than the verifier: no limits while inflating, no name checks, no signer
# policy, no order.json validation. Usage: Benchmarks/run.sh [N]   (default N = 500)
set -euo pipefail
cd "$(dirname "$0")"
iterations=${1:-500}
archive=$(cd ../TestArchives/valid && pwd)/basic.order
root=$(cd ../TestArchives/pki && pwd)/root.pem
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

percentile50() { awk -F'\t' '$1 == "50" { print $2 }'; }
now() { date +%s%N; }
per_second() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.0f", n / (ns / 1e9) }'; }

echo "== library (ordo-one/benchmark, p50)" >&2
swift package benchmark --filter "Verify a typical.*" --no-progress --format histogramPercentiles --path stdout \
  --metric throughput --metric mallocCountTotal 2>/dev/null > "$work/library.tsv"
library=$(awk -F'\t' '/Throughput/ { section = "t" } /Malloc/ { section = "m" } $1 == "50" { print section, $2 }' "$work/library.tsv")
library_rate=$(echo "$library" | awk '$1 == "t" { print $2 }')
library_mallocs=$(echo "$library" | awk '$1 == "m" { print $2 }')

echo "== orders CLI (release)" >&2
(cd .. && swift build -c release --product orders >/dev/null 2>&1)
orders="$(cd .. && swift build -c release --show-bin-path)/orders"
start=$(now)
"$orders" verify --trust-root "$root" "$archive" > /dev/null
startup_ms=$(( ($(now) - start) / 1000000 ))
arguments=()
for _ in $(seq "$iterations"); do arguments+=("$archive"); done
start=$(now)
"$orders" verify --trust-root "$root" "${arguments[@]}" > "$work/cli.txt"
cli_ns=$(( $(now) - start ))
[ "$(grep -c '^✓' "$work/cli.txt")" -eq "$iterations" ] || { echo "the CLI did not verify every copy" >&2; exit 1; }
cli_rate=$(per_second "$iterations" "$cli_ns")

echo "== unzip + sha256sum + openssl cms -verify" >&2
start=$(now)
for i in $(seq "$iterations"); do
  d="$work/x$i"
  unzip -q "$archive" -d "$d"
  # The manifest is one "name": "digest" pair per line (as orders pack writes it).
  sed -n 's/^ *"\(.*\)": "\([0-9a-f]\{64\}\)",\{0,1\}$/\2  \1/p' "$d/manifest.json" | (cd "$d" && sha256sum -c --quiet -)
  openssl cms -verify -binary -inform DER -in "$d/signature" -content "$d/manifest.json" \
    -CAfile "$root" -purpose any -out /dev/null 2>/dev/null
  rm -rf "$d"
done
script_ns=$(( $(now) - start ))
script_rate=$(per_second "$iterations" "$script_ns")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f×", a / b }'; }
echo
printf '%-44s %14s %14s %14s\n' "Verifying basic.order (~100 KB)" "archives/s" "vs script" "allocations"
printf '%-44s %14s %14s %14s\n' "OrderVerifier (library, in process, p50)" "$library_rate" "$(ratio "$library_rate" "$script_rate")" "$library_mallocs"
printf '%-44s %14s %14s %14s\n' "orders verify (CLI, $iterations files, 1 process)" "$cli_rate" "$(ratio "$cli_rate" "$script_rate")" "-"
printf '%-44s %14s %14s %14s\n' "unzip + sha256sum + openssl cms (script)" "$script_rate" "1.0×" "-"
echo "(host: $(nproc) cores; the CLI verifies files in parallel, one task per core; one file alone takes ${startup_ms} ms,"
echo " most of it process start-up; the library figure is one core, with the verifier's certificate cache warm)"
