#!/usr/bin/env bash
# Runs the benchmarks and prints the figures Benchmarks/README.md quotes, with comparisons made in the same run.
#
#   Benchmarks/run.sh            both sections
#   Benchmarks/run.sh verify [N] verification: the library, the `orders` CLI (N files, default 2,000),
#                                and the same checks scripted with unzip + sha256sum + openssl cms;
#                                BEFORE_BINARY (an earlier commit's release `orders`) adds its one-core row
#   Benchmarks/run.sh scaling    orders verify with 8,000 and 32,000 file arguments (linear)
#   Benchmarks/run.sh store      saveOrder and containsOrder on stores of 1,000 to 1,000,000 orders
#   Benchmarks/run.sh finance    transactions(query:) over 1,000,000 transactions against the same
#                                query in memory, and history catch-up over 100,000 changes against
#                                re-reading the account
#   Benchmarks/run.sh delivery   background delivery: deliveries/s the outbox drainer sends to a local
#                                receiver against the same signed POSTs without the outbox, and an
#                                import of 1,000 transactions with 100 clients' endpoints against
#                                none, alone and with the planning pass it leads to
#   Benchmarks/run.sh pages [S]  rendering an order page (OrderRenderer) alone and from the stored
#                                archive's bytes, against verifying the same archive; then the
#                                customer page through `orders serve` against a GET of the same
#                                order's archive (wrk, S seconds per run, default 10)
#   Benchmarks/run.sh scaleout [S]
#                                PostgreSQL against SQLite in the same run: `orders add` saves/s
#                                with 1, 2 and 4 processes (20 orders × 25 versions, interleaved),
#                                and containsOrder req/s through 1 and 2 `orders serve` instances
#                                (S seconds of wrk, default 10); starts its own throwaway cluster
#   Benchmarks/run.sh saves [BEFORE]
#                                `orders add` of 2,000 new orders in one process: SQLite against
#                                PostgreSQL (a direct connection, prepared statements) in the same
#                                run, three rounds alternating, medians; with BEFORE (an earlier
#                                commit's release `orders`) its rows too. Under Scripts/with-postgres.sh
#   Benchmarks/run.sh serve [S]  orders serve under wrk (S seconds per run, default 10): /health, a
#                                device's GET of an order (100 KB and 3.5 KB archives) and the merchant
#                                API's containsOrder, against a bare Hummingbird handler answering the
#                                same bytes (BareHandler); ORDERS_BINARY measures another build
#   Benchmarks/run.sh compare BEFORE [S]
#                                two builds of orders serve under the same wrk load, alternating: BEFORE
#                                (an earlier commit's release `orders`) and this one — a device's GET,
#                                the merchant API's read, the consent sheet and its account picker
#                                (a signed-in owner's session); COMPARE_BACKEND=postgresql serves both from
#                                a new PostgreSQL database each (under Scripts/with-postgres.sh)
#   Benchmarks/run.sh authoring [S]
#                                authored versions/s (PATCH …/content through orders serve, wrk) on one
#                                core and two against openssl speed's one-core RSA-2048 sign rate;
#                                SQLite with a key file and with SoftHSM2 (PKCS#11), PostgreSQL under
#                                Scripts/with-postgres.sh
#   Benchmarks/run.sh logflood [S]
#                                device GETs (wrk, 8 connections) alone, then while a second wrk
#                                floods POST /v1/log with 60 KB bodies: p50/p99 of each, and the log
#                                bytes the flood wrote per request (docs/hardening.md)
#
# Seeded stores are cached in $TMPDIR/wallet-orders-benchmarks (the first finance run seeds a
# million transactions: about five minutes on two cores).
#
# The script in the verification comparison does *less* than the verifier: no limits while
# inflating, no name checks, no signer policy, no order.json validation.
set -euo pipefail
cd "$(dirname "$0")"
section=${1:-all}
iterations=${2:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run_benchmarks TARGET FILTER → JMH JSON in $work/TARGET.json
run_benchmarks() {
  rm -rf "$work/jmh" && mkdir -p "$work/jmh"
  swift package --allow-writing-to-directory "$work/jmh" benchmark --target "$1" --filter "$2" --no-progress \
    --format jmh --path "$work/jmh" >/dev/null 2>&1
  mv "$work/jmh/"*.jmh.json "$work/$1.json"
}

# p50 per benchmark: name<TAB>operations/s<TAB>µs per operation<TAB>allocations per operation
p50() {
  python3 - "$1" <<'PY'
import json, re, sys
for b in json.load(open(sys.argv[1])):
    name = b["benchmark"].split(".", 3)[-1].replace("_", " ")
    metrics = {k: v["scorePercentiles"]["50.0"] for k, v in b["secondaryMetrics"].items()}
    # A "×N" benchmark does N operations per sample (scalingFactor, or N tasks at once); the
    # export reports per sample.
    marker = re.search(r" ×([0-9]{1,3}(?:,[0-9]{3})*)", name)
    scale = int(marker.group(1).replace(",", "")) if marker else 1
    name = name.replace(marker.group(0), "") if marker else name
    micros = metrics["Time (wall clock)"] / scale
    print(f"{name}\t{1e6 / micros:.0f}\t{micros:.1f}\t{metrics.get('Malloc (total)', 0) / scale:.0f}")
PY
}

verify_section() {
  local archive root
  archive=$(cd ../TestArchives/valid && pwd)/basic.order
  root=$(cd ../TestArchives/pki && pwd)/root.pem
  echo "== verification: library" >&2
  run_benchmarks OrderVerification "Verify a typical.*"
  IFS=$'\t' read -r _ library_rate _ library_mallocs < <(p50 "$work/OrderVerification.json")

  echo "== verification: orders CLI (release)" >&2
  (cd .. && swift build -c release --product orders >/dev/null 2>&1)
  local orders start startup_ms arguments=()
  orders="$(cd .. && swift build -c release --show-bin-path)/orders"
  "$orders" verify --trust-root "$root" "$archive" > /dev/null  # warm the file cache once
  start=$(date +%s%N)
  "$orders" verify --trust-root "$root" "$archive" > /dev/null
  startup_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  for _ in $(seq "$iterations"); do arguments+=("$archive"); done
  "$orders" verify --trust-root "$root" "${arguments[@]}" > "$work/cli.txt"
  [ "$(grep -c '^✓' "$work/cli.txt")" -eq "$iterations" ] || { echo "the CLI did not verify every copy" >&2; exit 1; }
  # The same files on one core (taskset) and on every core, alternating, five rounds each: this
  # VM's second core is noisy, so one pair of runs can show anything from 1.5× to 2×; medians.
  local cli_rate one_core_rate rounds=5 timings=()
  for _ in $(seq "$rounds"); do
    start=$(date +%s%N)
    taskset -c 0 "$orders" verify --trust-root "$root" "${arguments[@]}" > /dev/null
    timings+=("one $(( $(date +%s%N) - start ))")
    start=$(date +%s%N)
    "$orders" verify --trust-root "$root" "${arguments[@]}" > /dev/null
    timings+=("all $(( $(date +%s%N) - start ))")
    if [ -n "${BEFORE_BINARY:-}" ]; then
      start=$(date +%s%N)
      taskset -c 0 "$BEFORE_BINARY" verify --trust-root "$root" "${arguments[@]}" > /dev/null
      timings+=("before $(( $(date +%s%N) - start ))")
    fi
  done
  median_rate() {
    printf '%s\n' "${timings[@]}" | awk -v kind="$1" -v n="$iterations" '$1 == kind { print $2 }' | sort -n |
      awk -v n="$iterations" '{ t[NR] = $1 } END { printf "%.0f", n / (t[int((NR + 1) / 2)] / 1e9) }'
  }
  one_core_rate=$(median_rate one)
  cli_rate=$(median_rate all)
  # What the hardware itself gives two processes: openssl speed's RSA verify with -multi.
  local multi_ratio
  multi_ratio=$(
    one=$(openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $(NF) }')
    many=$(openssl speed -multi "$(nproc)" -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $(NF) }')
    awk -v a="$many" -v b="$one" 'BEGIN { printf "%.2f", a / b }'
  )

  # The one-core compute bound of one verification: 3 RSA-2048 verifications (the signer's
  # signature over the manifest and the two links of its chain), SHA-256 of the manifest and of
  # every file, and inflating the deflated entries, at the speeds OpenSSL and zlib reach on this
  # machine in this run.
  echo "== verification: the compute bound (openssl speed, zlib)" >&2
  local rsa_verify sha_bytes inflate_seconds hashed bound_rate
  rsa_verify=$(openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $(NF) }')
  sha_bytes=$(openssl speed -seconds 3 -evp sha256 -bytes 16384 2>/dev/null | awk '/^sha256/ { v = $NF; sub(/k$/, "", v); print v * 1000 }')
  read -r hashed inflate_seconds < <(python3 - "$archive" <<'PY'
import struct, sys, time, zipfile, zlib
path = sys.argv[1]
data = open(path, "rb").read()
archive = zipfile.ZipFile(path)
hashed = 0
streams = []
for info in archive.infolist():
    if info.is_dir():
        continue
    if info.filename != "signature":
        hashed += info.file_size  # every file against the manifest, and the manifest itself for the signature
    if info.compress_type == zipfile.ZIP_DEFLATED:
        name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
        begin = info.header_offset + 30 + name_length + extra_length
        streams.append(data[begin:begin + info.compress_size])
rounds = 2000
start = time.perf_counter()
for _ in range(rounds):
    for stream in streams:
        zlib.decompressobj(-15).decompress(stream)
print(hashed, (time.perf_counter() - start) / rounds)
PY
)
  bound_rate=$(awk -v r="$rsa_verify" -v s="$sha_bytes" -v h="$hashed" -v i="$inflate_seconds" \
    'BEGIN { printf "%.0f", 1 / (3 / r + h / s + i) }')

  echo "== verification: unzip + sha256sum + openssl cms -verify" >&2
  local script_rate d
  start=$(date +%s%N)
  for i in $(seq "$iterations"); do
    d="$work/x$i"
    unzip -q "$archive" -d "$d"
    # The manifest is one "name": "digest" pair per line (as orders pack writes it).
    sed -n 's/^ *"\(.*\)": "\([0-9a-f]\{64\}\)",\{0,1\}$/\2  \1/p' "$d/manifest.json" | (cd "$d" && sha256sum -c --quiet -)
    openssl cms -verify -binary -inform DER -in "$d/signature" -content "$d/manifest.json" \
      -CAfile "$root" -purpose any -out /dev/null 2>/dev/null
    rm -rf "$d"
  done
  script_rate=$(awk -v n="$iterations" -v ns="$(( $(date +%s%N) - start ))" 'BEGIN { printf "%.0f", n / (ns / 1e9) }')

  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f×", a / b }'; }
  echo
  printf '%-46s %12s %11s %12s\n' "Verifying basic.order (~100 KB)" "archives/s" "vs script" "allocations"
  printf '%-46s %12s %11s %12s\n' "OrderVerifier (library, one core, p50)" "$library_rate" "$(ratio "$library_rate" "$script_rate")" "$library_mallocs"
  printf '%-46s %12s %11s %12s\n' "orders verify (CLI, $iterations files, one process)" "$cli_rate" "$(ratio "$cli_rate" "$script_rate")" "-"
  printf '%-46s %12s %11s %12s\n' "unzip + sha256sum + openssl cms (script)" "$script_rate" "1.0×" "-"
  echo "(host: $(nproc) cores; the CLI verifies files in parallel; one file alone takes ${startup_ms} ms, mostly start-up)"
  echo
  printf '%-46s %12s %11s\n' "Against the one-core compute bound" "archives/s" "of bound"
  printf '%-46s %12s %11s\n' "bound: 3 × RSA-2048 verify + SHA-256 + inflate" "$bound_rate" "100 %"
  printf '%-46s %12s %11s\n' "OrderVerifier (library, one core, p50)" "$library_rate" \
    "$(awk -v a="$library_rate" -v b="$bound_rate" 'BEGIN { printf "%.0f %%", 100 * a / b }')"
  printf '%-46s %12s %11s\n' "orders verify, one core (taskset -c 0)" "$one_core_rate" \
    "$(awk -v a="$one_core_rate" -v b="$bound_rate" 'BEGIN { printf "%.0f %%", 100 * a / b }')"
  if [ -n "${BEFORE_BINARY:-}" ]; then
    local before_rate
    before_rate=$(median_rate before)
    printf '%-46s %12s %11s\n' "before (BEFORE_BINARY), one core" "$before_rate" \
      "$(awk -v a="$before_rate" -v b="$bound_rate" 'BEGIN { printf "%.0f %%", 100 * a / b }')"
  fi
  printf '%-46s %12s %11s\n' "orders verify, $(nproc) cores" "$cli_rate" \
    "$(awk -v a="$cli_rate" -v b="$one_core_rate" 'BEGIN { printf "%.2f× one core", a / b }')"
  echo "(medians of $rounds alternating runs of $iterations files each; openssl speed's RSA verify on $(nproc) cores: ${multi_ratio}× one)"
  echo "(RSA-2048 verify: ${rsa_verify}/s; SHA-256: $(awk -v s="$sha_bytes" 'BEGIN { printf "%.0f", s / 1e6 }') MB/s over 16 KiB blocks; $hashed bytes hashed, inflate ${inflate_seconds} s per archive)"
  echo
}

store_section() {
  echo "== store: saveOrder and containsOrder" >&2
  run_benchmarks OrderStore ".*"
  p50 "$work/OrderStore.json" > "$work/store.tsv"
  echo
  python3 - "$work/store.tsv" <<'PY'
import re, sys
lines = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
size = lambda name: int(re.search(r"of ([0-9,]+) orders", name).group(1).replace(",", "")) if "of " in name else 0
print(f"{'Order store (SQLite, p50)':<64} {'ops/s':>10} {'µs/op':>10} {'allocations':>12}")
for name, rate, micros, mallocs in sorted(lines, key=lambda row: (row[0].split(",")[0], size(row[0]))):
    print(f"{name:<64} {rate:>10} {micros:>10} {mallocs:>12}")
rows = {line[0]: float(line[2]) for line in lines}
small = rows.get("containsOrder, store of 1,000 orders")
large = rows.get("containsOrder, store of 1,000,000 orders")
if small and large:
    print(f"containsOrder latency, 1,000,000 vs 1,000 orders: {large / small:.2f}× (an index lookup: flat)")
PY
  echo
}

finance_section() {
  echo "== financial data: queries and history" >&2
  run_benchmarks FinanceQueries "transactions.*|history.*|re-reading.*|import.*"
  p50 "$work/FinanceQueries.json" > "$work/finance.tsv"
  # The in-memory baseline runs under 1 op/s, which the JMH export drops; read its percentiles.
  rm -rf "$work/percentiles" && mkdir -p "$work/percentiles"
  swift package --allow-writing-to-directory "$work/percentiles" benchmark --target FinanceQueries --filter "in memory.*" \
    --no-progress --format histogramPercentiles --path "$work/percentiles" >/dev/null 2>&1
  python3 - "$work/percentiles" >> "$work/finance.tsv" <<'PY'
import glob, re, sys
scale = {"ns": 1e-3, "μs": 1, "us": 1, "ms": 1e3, "s": 1e6, "#": 1, "K": 1e3, "M": 1e6, "G": 1e9}
def p50(metric):
    (path,) = glob.glob(f"{sys.argv[1]}/*.{metric}.histogram.percentiles.tsv")
    lines = open(path).read().splitlines()
    unit = re.search(r"\((ns|μs|us|ms|s|#|K|M|G)\) \*?$", lines[0].strip())
    value = float(dict(line.split("\t") for line in lines[1:])["50"])
    return value * scale[unit.group(1) if unit else "#"]
micros = p50("wallClock")
print(f"in memory\t{1e6 / micros:.2f}\t{micros:.0f}\t{p50('mallocCountTotal'):.0f}")
PY
  echo
  python3 - "$work/finance.tsv" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    name, rate, micros, mallocs = line.rstrip("\n").split("\t")
    rows[name] = (float(micros), int(mallocs))
ms = lambda micros: f"{micros / 1000:,.1f}" if micros < 100_000 else f"{micros / 1000:,.0f}"
suffix = ", 1,000,000 transactions"
memory = rows.get("in memory")
print(f"{'transactions(query:) over 1,000,000 transactions (p50)':<76} {'ms':>9} {'allocations':>12} {'vs in memory':>13}")
for name, (micros, mallocs) in sorted(rows.items(), key=lambda item: item[1][0]):
    if not name.endswith(suffix) or name.startswith("in memory"):
        continue
    ratio = f"{memory[0] / micros:,.0f}×" if memory else "-"
    print(f"{name[len('transactions(query:) '):-len(suffix)]:<76} {ms(micros):>9} {mallocs:>12,} {ratio:>13}")
if memory:
    approximate = f"≈{memory[1]:,}"  # the percentile export rounds to millions
    print(f"{'booked since June… in memory: fetch all, then filter, sort, limit in Swift':<76} {ms(memory[0]):>9} {approximate:>12} {'1×':>13}")
print()
reread = rows.get("re-reading the account with transactions(query:) after 100,000 changes")
print(f"{'History of one account (76,100 transactions after 100,000 changes, p50)':<76} {'ms':>9} {'allocations':>12} {'vs re-read':>13}")
for name, label, changes in [
    ("history catch-up from a token over 100,000 changes", "catch-up from a token over 100,000 changes", 100_000),
    ("history catch-up from a token over the last 100 changes", "catch-up from a token over the last 100 changes", None),
    ("history without a token (since: nil) after 100,000 changes", "fresh catch-up (since: nil), 76,100 inserted", 76_100),
    ("re-reading the account with transactions(query:) after 100,000 changes", "re-reading the account with transactions(query:)", None),
]:
    if name not in rows:
        continue
    micros, mallocs = rows[name]
    ratio = f"{reread[0] / micros:,.2f}×" if reread else "-"
    rate = f" ({changes / micros * 1e6:,.0f} changes/s)" if changes else ""
    print(f"{label + rate:<76} {ms(micros):>9} {mallocs:>12,} {ratio:>13}")
PY
  echo
}

# Background delivery (issue 26): what the durable outbox costs per delivery, and what 100
# registered clients add to an import.
pages_section() {
  local seconds=${1:-10}
  echo "== order pages: rendering against verifying" >&2
  run_benchmarks OrderPages ".*"
  p50 "$work/OrderPages.json" > "$work/pages.tsv"
  echo
  python3 - "$work/pages.tsv" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    name, rate, micros, mallocs = line.rstrip("\n").split("\t")
    rows[name] = (float(rate), float(micros), int(mallocs))
verify = rows.get("verify the same archive (all checks)")
print(f"{'TestArchives/valid/full.order (p50)':<52} {'per s':>8} {'µs each':>9} {'allocs':>8} {'vs verify':>10}")
for name in ["render the full order", "render the full order from stored bytes", "verify the same archive (all checks)"]:
    if name in rows:
        rate, micros, mallocs = rows[name]
        ratio = f"{micros / verify[1]:.2f}×" if verify else "-"
        print(f"{name:<52} {rate:>8,.0f} {micros:>9,.0f} {mallocs:>8,} {ratio:>10}")
PY
  echo
  # The customer page over HTTP against a GET of the same order's archive (its Add to Apple
  # Wallet download: the same link check, then the bytes), wrk on loopback, alternating.
  command -v wrk >/dev/null || { echo "pages: wrk is missing (Debian package wrk)" >&2; exit 2; }
  (cd .. && swift build -c release --product orders >/dev/null 2>&1)
  local orders store link served
  orders="${ORDERS_BINARY:-$(cd .. && swift build -c release --show-bin-path)/orders}"
  store="$work/pages.sqlite"
  "$orders" add --store "$store" --trust-root ../TestArchives/pki/root.pem ../TestArchives/valid/full.order >/dev/null
  link=$("$orders" link --store "$store" --type order.com.example.shop --id ORDER-FULL-1)
  ORDERS_LOG_LEVEL=error "$orders" serve --store "$store" --port 0 > "$work/pages-serve.out" 2>"$work/pages-serve.err" &
  serve_pid=$!  # global: the EXIT trap runs after this function returns
  trap 'kill "$serve_pid" 2>/dev/null; rm -rf "$work"' EXIT
  until grep -q listening "$work/pages-serve.out" 2>/dev/null; do sleep 0.05; done
  served=$(sed 's/.*://' "$work/pages-serve.out")
  rate() {
    wrk -t1 -c32 -d"${seconds}s" "http://127.0.0.1:$served$1" | awk '/Requests\/sec/ { printf "%.0f", $2 }'
  }
  rate "$link" >/dev/null; rate "${link/\?//archive?}" >/dev/null   # warm-up (fills both caches)
  local page_rates=() archive_rates=() round
  for round in 1 2 3; do
    page_rates+=("$(rate "$link")")
    archive_rates+=("$(rate "${link/\?//archive?}")")
  done
  python3 - "${page_rates[*]}" "${archive_rates[*]}" "$seconds" <<'PY'
import statistics, sys
page = statistics.median(int(v) for v in sys.argv[1].split())
archive = statistics.median(int(v) for v in sys.argv[2].split())
print(f"wrk, 1 thread, 32 connections, {sys.argv[3]} s per run, 3 rounds alternating, medians (req/s):")
print(f"{'the customer page (GET /orders/{type}/{id}?…)':<52} {page:>8,.0f}")
print(f"{'its archive (GET …/archive?…, Add to Apple Wallet)':<52} {archive:>8,.0f}")
print(f"a page costs {archive / page:.2f}× a GET of the archive")
PY
  echo
}

delivery_section() {
  echo "== background delivery: drainer and planning pass" >&2
  run_benchmarks BackgroundDelivery ".*"
  p50 "$work/BackgroundDelivery.json" > "$work/delivery.tsv"
  echo
  python3 - "$work/delivery.tsv" "$work/BackgroundDelivery.json" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    name, rate, micros, mallocs = line.rstrip("\n").split("\t")
    rows[name] = (float(rate), float(micros), int(mallocs))
drain = rows.get("drainer: 1,000 deliveries to a local receiver")
direct = rows.get("the same 1,000 signed POSTs without the outbox (HTTPWebhookSender, 50 at a time)")
print(f"{'Background deliveries to a local receiver (p50)':<72} {'per s':>8} {'µs each':>9} {'allocs':>8}")
for label, row in [("drainer: claim, check, sign, POST, record (1,000 due)", drain),
                   ("the same signed POSTs, no outbox (50 at a time)", direct)]:
    if row:
        print(f"{label:<72} {row[0]:>8,.0f} {row[1]:>9,.0f} {row[2]:>8,}")
if drain and direct:
    print(f"the drainer sends at {drain[0] / direct[0]:.2f}× the rate of sending alone")
print()
base = rows.get("import 1,000 transactions, no clients")
print(f"{'Import of 1,000 transactions (p50)':<80} {'ms':>8} {'vs none':>9} {'allocs':>8}")
for name in ["import 1,000 transactions, no clients", "import 1,000 transactions, 100 clients with background delivery",
             "import 1,000 transactions + planning pass, no clients",
             "import 1,000 transactions + planning pass, 100 clients with background delivery"]:
    if name in rows:
        rate, micros, mallocs = rows[name]
        ratio = f"{100 * (micros / base[1] - 1):+.0f} %" if base else "-"
        print(f"{name:<80} {micros / 1000:>8.1f} {ratio:>9} {mallocs:>8,}")
for b in json.load(open(sys.argv[2])):
    metrics = b["secondaryMetrics"]
    key = next((k for k in metrics if k.startswith("planning pass, % of the import")), None)
    if key and "planning_pass,_100_clients" in b["benchmark"]:
        p = metrics[key]["scorePercentiles"]
        print(f"planning pass deciding 100 deliveries, timed in the same iterations: {p['50.0']:.0f} % of the import "
              f"(p0 {p['0.0']:.0f} %, p90 {p['90.0']:.0f} %)")
PY
  echo
}

# `orders verify` with many file arguments: time must grow linearly with their number.
# (swift-argument-parser's removal of consumed arguments is quadratic; the CLI sets file operands
# apart before it parses, see Sources/orders/Options/FileOperands.swift.)
scaling_section() {
  echo "== orders verify: 8,000 and 32,000 file arguments (release)" >&2
  (cd .. && swift build -c release --product orders >/dev/null 2>&1)
  local orders archive root start small large
  orders="$(cd .. && swift build -c release --show-bin-path)/orders"
  archive=$(cd ../TestArchives/valid && pwd)/basic.order
  root=$(cd ../TestArchives/pki && pwd)/root.pem
  mkdir -p "$work/many"
  for i in $(seq 32000); do ln -s "$archive" "$work/many/f$i.order"; done
  time_verify() {
    local files=() i
    for i in $(seq "$1"); do files+=("$work/many/f$i.order"); done
    start=$(date +%s%N)
    "$orders" verify --trust-root "$root" "${files[@]}" > "$work/many.txt"
    [ "$(grep -c '^✓' "$work/many.txt")" -eq "$1" ] || { echo "not every file was verified" >&2; exit 1; }
    awk -v ns="$(( $(date +%s%N) - start ))" 'BEGIN { printf "%.2f", ns / 1e9 }'
  }
  small=$(time_verify 8000)
  large=$(time_verify 32000)
  echo
  printf '%-40s %10s\n' "orders verify, file arguments" "seconds"
  printf '%-40s %10s\n' "8,000 files" "$small" "32,000 files" "$large"
  awk -v a="$large" -v b="$small" 'BEGIN { printf "32,000 vs 8,000 files: %.2f× (linear would be 4×)\n", a / b }'
  echo
}

# seeded_store SECTION NAME → builds orders (release), a store NAME holding the basic test order;
# sets orders, root, archive, store, type, id, token
seeded_store() {
  command -v wrk >/dev/null || { echo "$1: wrk is missing (Debian package wrk)" >&2; exit 2; }
  # ORDERS_BINARY measures another build (an earlier commit's) against the same baseline.
  [ -n "${ORDERS_BINARY:-}" ] || (cd .. && swift build -c release --product orders >/dev/null 2>&1)
  orders="${ORDERS_BINARY:-$(cd .. && swift build -c release --show-bin-path)/orders}"
  root=$(cd ../TestArchives/pki && pwd)/root.pem
  archive=$(cd ../TestArchives/valid && pwd)/basic.order
  store="$work/$2"
  "$orders" add --store "$store" --trust-root "$root" "$archive" >/dev/null
  read -r type id token < <(unzip -p "$archive" order.json | python3 -c \
    'import json,sys; o=json.load(sys.stdin); print(o["orderTypeIdentifier"], o["orderIdentifier"], o["authenticationToken"])')
}

# `orders serve` against a bare Hummingbird handler serving the same bytes, both under wrk on
# loopback, alternating, in the same run.
serve_section() {
  local seconds=${1:-10} orders bare root archive store key token type id
  echo "== serve: building orders and BareHandler (release)" >&2
  seeded_store serve serve.sqlite
  swift build -c release --product BareHandler >/dev/null 2>&1
  bare="$(swift build -c release --show-bin-path)/BareHandler"
  key=$("$orders" keys create --store "$store" --order-type "$type" 2>/dev/null)

  # A second store and server with a typical small archive (3.5 KB): with a 100 KB body the write
  # hides what a request costs besides it.
  local small small_store="$work/small.sqlite"
  small=$(cd ../TestArchives/valid && pwd)/key-id.order
  "$orders" add --store "$small_store" --trust-root "$root" "$small" >/dev/null

  ORDERS_LOG_LEVEL=error "$orders" serve --store "$store" --port 0 > "$work/serve.out" 2>"$work/serve.err" &
  serve_pid=$!  # global: the EXIT trap runs after this function returns
  ORDERS_LOG_LEVEL=error "$orders" serve --store "$small_store" --port 0 > "$work/small.out" 2>"$work/small.err" &
  small_pid=$!
  until grep -q listening "$work/serve.out" 2>/dev/null && grep -q listening "$work/small.out" 2>/dev/null; do sleep 0.05; done
  local served small_served
  served=$(sed 's/.*://' "$work/serve.out")
  small_served=$(sed 's/.*://' "$work/small.out")
  curl -s -H "Authorization: Bearer $key" "http://127.0.0.1:$served/api/v1/orders/$type/$id" > "$work/answer.json"
  curl -s "http://127.0.0.1:$served/health" > "$work/health.json"
  "$bare" "$archive" "$work/answer.json" "$work/health.json" > "$work/bare.out" &
  bare_pid=$!
  "$bare" "$small" "$work/answer.json" "$work/health.json" > "$work/bare-small.out" &
  bare_small_pid=$!
  until grep -q listening "$work/bare.out" 2>/dev/null && grep -q listening "$work/bare-small.out" 2>/dev/null; do sleep 0.05; done
  local bare_port bare_small_port
  bare_port=$(sed 's/.*://' "$work/bare.out")
  bare_small_port=$(sed 's/.*://' "$work/bare-small.out")
  trap 'kill "$serve_pid" "$small_pid" "$bare_pid" "$bare_small_pid" 2>/dev/null; rm -rf "$work"' EXIT

  # load PID PORT PATH HEADER → "requests/s p99-ms instructions-per-request": wrk drives the
  # server while perf counts the server's own user-space instructions (throughput on a shared
  # 2-core machine drifts by a third between runs; instructions per request do not).
  load() {
    local counted=""
    if perf stat -e instructions:u true >/dev/null 2>&1; then
      perf stat -x, -e instructions:u -p "$1" -o "$work/perf.txt" -- sleep "$seconds" &
      counted=$!
    fi
    wrk -t1 -c32 -d"${seconds}s" --latency -H "$4" "http://127.0.0.1:$2$3" > "$work/wrk.txt"
    [ -n "$counted" ] && wait "$counted"
    local instructions=0
    [ -n "$counted" ] && instructions=$(awk -F, '/instructions/ { print $1 }' "$work/perf.txt")
    awk -v instructions="$instructions" '
      / requests in / { requests = $1 }
      /Requests\/sec/ { rate = $2 }
      $1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms/, "", v) } else if (v ~ /s$/) { sub(/s/, "", v); v *= 1000 }; p99 = v }
      END { printf "%.0f %.2f %.0f", rate, p99, (requests > 0 ? instructions / requests : 0) }' "$work/wrk.txt"
  }
  # median ROUNDS... of "rps p99 ipr" lines → the line with the median rate
  median() { sort -n | awk '{ line[NR] = $0 } END { print line[int((NR + 1) / 2)] }'; }

  echo "== serve: wrk, 1 thread, 32 connections, ${seconds} s per run, 3 rounds alternating, medians" >&2
  printf '%-38s %10s %7s %12s %10s %7s %12s %7s %7s\n' "request" "orders rps" "p99 ms" "instr/req" \
    "bare rps" "p99 ms" "instr/req" "rps %" "instr %"
  local name path header ours theirs round ours_pid ours_port bare_pid_now bare_port_now
  for row in "/health (no authentication)|/health|X-Load: wrk|big" \
             "GET order, 100 KB (device, AppleOrder)|/v1/orders/$type/$id|Authorization: AppleOrder $token|big" \
             "GET order, 3.5 KB (device, AppleOrder)|/v1/orders/$type/$id|Authorization: AppleOrder $token|small" \
             "containsOrder (merchant API, Bearer)|/api/v1/orders/$type/$id|Authorization: Bearer $key|big"; do
    IFS='|' read -r name path header which <<< "$row"
    if [ "$which" = small ]; then
      ours_pid=$small_pid; ours_port=$small_served; bare_pid_now=$bare_small_pid; bare_port_now=$bare_small_port
    else
      ours_pid=$serve_pid; ours_port=$served; bare_pid_now=$bare_pid; bare_port_now=$bare_port
    fi
    load "$ours_pid" "$ours_port" "$path" "$header" >/dev/null   # warm-up (fills the archive cache)
    : > "$work/ours.txt"; : > "$work/theirs.txt"
    for round in 1 2 3; do
      load "$ours_pid" "$ours_port" "$path" "$header" >> "$work/ours.txt"; echo >> "$work/ours.txt"
      load "$bare_pid_now" "$bare_port_now" "$path" "$header" >> "$work/theirs.txt"; echo >> "$work/theirs.txt"
    done
    ours=$(median < "$work/ours.txt")
    theirs=$(median < "$work/theirs.txt")
    read -r our_rate our_p99 our_ipr <<< "$ours"
    read -r bare_rate bare_p99 bare_ipr <<< "$theirs"
    printf '%-38s %10s %7s %12s %10s %7s %12s %7s %7s\n' "$name" "$our_rate" "$our_p99" "$our_ipr" \
      "$bare_rate" "$bare_p99" "$bare_ipr" \
      "$(awk -v a="$our_rate" -v b="$bare_rate" 'BEGIN { printf "%.0f", 100 * a / b }')" \
      "$(awk -v a="$bare_ipr" -v b="$our_ipr" 'BEGIN { if (b > 0) printf "%.0f", 100 * a / b; else print "-" }')"
  done
  echo
}

scaleout_section() {
  local seconds=${1:-10} orders root source type key
  command -v wrk >/dev/null || { echo "scaleout: wrk is missing (Debian package wrk)" >&2; exit 2; }
  [ -n "${ORDERS_TEST_POSTGRES:-}" ] || { echo "scaleout: run under Scripts/with-postgres.sh" >&2; exit 2; }
  echo "== scaleout: building orders (release)" >&2
  (cd .. && swift build -c release --product orders >/dev/null 2>&1)
  orders="${ORDERS_BINARY:-$(cd .. && swift build -c release --show-bin-path)/orders}"
  root=$(cd ../TestArchives/pki && pwd)/root.pem
  local pki
  pki=$(cd ../TestArchives/pki && pwd)
  source=$(cd ../TestArchives/sources/small && pwd)
  type=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["orderTypeIdentifier"])' "$source/order.json")

  # Signed once and kept beside the other seeded data (500 `orders pack` runs take minutes).
  local archives="${TMPDIR:-/tmp}/wallet-orders-benchmarks/scaleout-archives"
  if [ "$(ls "$archives" 2>/dev/null | wc -l)" -ne 500 ]; then
  echo "== scaleout: signing 20 orders × 25 versions" >&2
  rm -rf "$archives" && mkdir -p "$archives"
  local order version folder
  for order in $(seq 0 19); do
    for version in $(seq 0 24); do
      folder="$work/src-$order-$version"
      cp -r "$source" "$folder"
      python3 - "$folder/order.json" "$order" "$version" <<'PY'
import json, sys
path, order, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
o = json.load(open(path))
o["orderIdentifier"] = f"SCALE-{order}"
o["updatedAt"] = f"2026-01-16T09:00:{version:02d}Z"
json.dump(o, open(path, "w"))
PY
      "$orders" pack "$folder" --certificate "$pki/order.pem" --key "$pki/order.key" --intermediate "$pki/wwdr.pem" \
        -o "$archives/$order-$version.order" >/dev/null
      rm -rf "$folder"
    done
  done
  fi

  # adds BACKEND-ARGS... with P processes → saves/s (every archive once, shares interleaved).
  # The store is created before the clock starts, by adding another order: creating the schema
  # (~0.35 s on a new PostgreSQL database, ~10 ms for SQLite) is not a save.
  local primer
  primer=$(cd ../TestArchives/valid && pwd)/basic.order
  adds() {
    local processes=$1; shift
    local files=("$archives"/*.order) start pids=() p i share
    "$orders" add --yes --trust-root "$root" "$@" "$primer" >/dev/null
    start=$(date +%s.%N)
    for p in $(seq 0 $((processes - 1))); do
      share=()
      for i in "${!files[@]}"; do (( i % processes == p )) && share+=("${files[$i]}"); done
      "$orders" add --yes --trust-root "$root" "$@" "${share[@]}" >/dev/null 2>"$work/add-$p.err" &
      pids+=($!)
    done
    # Every file must be added or newerExisting (exit 0 or 3): anything else is not a save.
    local status
    for p in "${pids[@]}"; do
      status=0; wait "$p" || status=$?
      [ "$status" -eq 0 ] || [ "$status" -eq 3 ] || {
        echo "scaleout: orders add exited $status: $(grep -v '^[0-9]* files:' "$work"/add-*.err | head -3)" >&2
        exit 1
      }
    done
    awk -v n="${#files[@]}" -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", n / (e - s) }'
  }
  # a new, empty PostgreSQL database's URL by ROUTE: direct (prepared statements), unprepared
  # (direct, prepared=false: before issue 28), session or transaction (through that PgBouncer)
  fresh_database() {
    local name="bench_$(date +%s%N)" via="$ORDERS_TEST_POSTGRES" extra=""
    psql "$ORDERS_TEST_POSTGRES" -qc "CREATE DATABASE $name" >/dev/null
    case "$1" in
      unprepared) extra="prepared=false" ;;
      session) via="$ORDERS_TEST_PGBOUNCER_SESSION" ;;
      transaction) via="$ORDERS_TEST_PGBOUNCER_TRANSACTION" ;;
    esac
    python3 - "$via" "$name" "$extra" <<'PY'
import sys
url, name, extra = sys.argv[1], sys.argv[2], sys.argv[3]
head, _, query = url.partition("?")
query = "&".join(part for part in (query, extra) if part)
print(head.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else ""))
PY
  }
  local routes=(unprepared direct session transaction)
  [ -n "${ORDERS_TEST_PGBOUNCER_TRANSACTION:-}" ] || routes=(unprepared direct)

  echo "== scaleout: orders add, saves/s (every save verified: 3 RSA verifies, hashes, inflate)" >&2
  echo "   PostgreSQL by route: unprepared = prepared=false (as before issue 28); direct = prepared statements;" >&2
  echo "   session, transaction = through PgBouncer in that pooling mode (transaction with prepared=false)" >&2
  printf '%-12s %12s' "processes" "SQLite"; printf ' %12s' "${routes[@]}"; echo
  local processes route
  for processes in 1 2 4; do
    printf '%-12s %12s' "$processes" "$(adds "$processes" --store "$work/adds-$processes.sqlite")"
    for route in "${routes[@]}"; do printf ' %12s' "$(adds "$processes" --database "$(fresh_database "$route")")"; done
    echo
  done
  echo

  # containsOrder through N instances: one wrk per instance at once, summed
  local store="$work/adds-1.sqlite" pg
  declare -A pgs
  for route in "${routes[@]}"; do
    pgs[$route]=$(fresh_database "$route")
    adds 1 --database "${pgs[$route]}" >/dev/null
  done
  contains() {
    local instances=$1; shift
    local pids=() ports=() i key rate=0
    key=$("$orders" keys create "$@" --order-type "$type" 2>/dev/null)
    for i in $(seq 1 "$instances"); do
      ORDERS_LOG_LEVEL=error "$orders" serve "$@" --port 0 > "$work/scale-$i.out" 2>/dev/null &
      pids+=($!)
    done
    for i in $(seq 1 "$instances"); do
      until grep -q listening "$work/scale-$i.out" 2>/dev/null; do sleep 0.05; done
      ports+=("$(sed 's/.*://' "$work/scale-$i.out")")
    done
    local loads=()
    for i in "${!ports[@]}"; do
      wrk -t1 -c16 -d"${seconds}s" -H "Authorization: Bearer $key" \
        "http://127.0.0.1:${ports[$i]}/api/v1/orders/$type/SCALE-$i" > "$work/wrk-$i.txt" &
      loads+=($!)
    done
    wait "${loads[@]}"
    for i in "${!ports[@]}"; do
      rate=$(awk -v r="$rate" '/Requests\/sec/ { r += $2 } END { printf "%.0f", r }' "$work/wrk-$i.txt")
    done
    kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null || true
    echo "$rate"
  }
  echo "== scaleout: containsOrder (merchant API) through N serve instances, wrk 16 connections each, ${seconds} s" >&2
  printf '%-12s %12s' "instances" "SQLite"; printf ' %12s' "${routes[@]}"; echo
  for processes in 1 2; do
    printf '%-12s %12s' "$processes" "$(contains "$processes" --store "$store")"
    for route in "${routes[@]}"; do printf ' %12s' "$(contains "$processes" --database "${pgs[$route]}")"; done
    echo
  done
  echo
}

# `orders add` of 2,000 new orders, one process: PostgreSQL against SQLite (issue 44, item 4).
saves_section() {
  local before=${1:-} orders root pki source
  [ -n "${ORDERS_TEST_POSTGRES:-}" ] || { echo "saves: run under Scripts/with-postgres.sh" >&2; exit 2; }
  echo "== saves: building orders (release)" >&2
  (cd .. && swift build -c release --product orders >/dev/null 2>&1)
  orders="$(cd .. && swift build -c release --show-bin-path)/orders"
  root=$(cd ../TestArchives/pki && pwd)/root.pem
  pki=$(cd ../TestArchives/pki && pwd)
  source=$(cd ../TestArchives/sources/small && pwd)
  local archives="${TMPDIR:-/tmp}/wallet-orders-benchmarks/saves-archives"
  if [ "$(ls "$archives" 2>/dev/null | wc -l)" -ne 2000 ]; then
    echo "== saves: signing 2,000 orders" >&2
    rm -rf "$archives" && mkdir -p "$archives"
    local folder="$work/src" i
    for i in $(seq 0 1999); do
      rm -rf "$folder" && cp -r "$source" "$folder"
      python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); o["orderIdentifier"] = "SAVE-" + sys.argv[2]; json.dump(o, open(sys.argv[1], "w"))' \
        "$folder/order.json" "$i"
      "$orders" pack "$folder" --certificate "$pki/order.pem" --key "$pki/order.key" --intermediate "$pki/wwdr.pem" \
        -o "$archives/$i.order" >/dev/null
    done
  fi
  # add BINARY BACKEND-ARGS... → saves/s; the store exists before the clock starts
  local primer
  primer=$(cd ../TestArchives/valid && pwd)/basic.order
  add() {
    local binary=$1 start; shift
    "$binary" add --yes --trust-root "$root" "$@" "$primer" >/dev/null
    start=$(date +%s.%N)
    "$binary" add --yes --trust-root "$root" "$@" "$archives"/*.order >/dev/null
    awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", 2000 / (e - s) }'
  }
  fresh() {
    local name="saves_$(date +%s%N)"
    psql "$ORDERS_TEST_POSTGRES" -qc "CREATE DATABASE $name" >/dev/null
    python3 -c 'import sys; head, _, q = sys.argv[1].partition("?"); print(head.rsplit("/", 1)[0] + "/" + sys.argv[2] + ("?" + q if q else ""))' \
      "$ORDERS_TEST_POSTGRES" "$name"
  }
  local binaries=("$orders") names=("this build") round b
  [ -n "$before" ] && { binaries+=("$before"); names+=("before"); }
  : > "$work/saves.txt"
  for round in 1 2 3; do
    for b in "${!binaries[@]}"; do
      echo "$b sqlite $(add "${binaries[$b]}" --store "$work/saves-$round-$b.sqlite")" >> "$work/saves.txt"
      echo "$b postgres $(add "${binaries[$b]}" --database "$(fresh)")" >> "$work/saves.txt"
    done
  done
  echo "== saves: orders add of 2,000 new orders, one process, saves/s (medians of 3 rounds)" >&2
  printf '%-12s %10s %12s %14s\n' "build" "SQLite" "PostgreSQL" "PG / SQLite"
  for b in "${!binaries[@]}"; do
    local lite pg
    lite=$(awk -v b="$b" '$1 == b && $2 == "sqlite" { print $3 }' "$work/saves.txt" | sort -n | sed -n 2p)
    pg=$(awk -v b="$b" '$1 == b && $2 == "postgres" { print $3 }' "$work/saves.txt" | sort -n | sed -n 2p)
    printf '%-12s %10s %12s %13s%%\n' "${names[$b]}" "$lite" "$pg" "$(awk -v a="$pg" -v b="$lite" 'BEGIN { printf "%.0f", 100 * a / b }')"
  done
  echo
}

# Device GETs with and without a device-log flood at the same time (issue 22): the flood must
# neither slow devices down much nor fill the disk.
logflood_section() {
  local seconds=${1:-10} orders root archive store token type id port
  echo "== logflood: building orders (release)" >&2
  seeded_store logflood flood.sqlite
  "$orders" serve --store "$store" --port 0 > "$work/flood.out" 2>"$work/flood.err" &
  serve_pid=$!
  trap 'kill "$serve_pid" 2>/dev/null; rm -rf "$work"' EXIT
  until grep -q listening "$work/flood.out" 2>/dev/null; do sleep 0.05; done
  port=$(sed 's/.*://' "$work/flood.out")
  python3 -c 'import json; print(json.dumps({"logs": ["x" * 600] * 100}))' > "$work/log.json"
  cat > "$work/flood.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$work/log.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA
  # percentiles FILE → "p50-ms p99-ms requests/s"
  percentiles() {
    awk '
      function ms(v) { if (v ~ /us$/) { sub(/us/, "", v); return v / 1000 } if (v ~ /ms$/) { sub(/ms/, "", v); return v } sub(/s/, "", v); return v * 1000 }
      $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) } /Requests\/sec/ { rate = $2 }
      END { printf "%.2f %.2f %.0f", p50, p99, rate }' "$1"
  }
  local device="http://127.0.0.1:$port/v1/orders/$type/$id"
  wrk -t1 -c8 -d2s -H "Authorization: AppleOrder $token" "$device" >/dev/null  # warm-up
  # measure LABEL [FLOOD-ARGUMENTS…]: device GETs, beside a wrk running FLOOD-ARGUMENTS if given
  measure() {
    local label=$1 flood="" before after
    shift
    before=$(stat -c %s "$work/flood.err")
    : > "$work/flood.txt"
    if [ $# -gt 0 ]; then
      wrk -t1 -d"$((seconds + 2))s" "$@" > "$work/flood.txt" &
      flood=$!
      sleep 1
    fi
    wrk -t1 -c8 -d"${seconds}s" --latency -H "Authorization: AppleOrder $token" "$device" > "$work/device.txt"
    [ -n "$flood" ] && wait "$flood"
    # What the flood wrote: its own lines (the device GETs' request lines are left out).
    after=$(tail -c +$((before + 1)) "$work/flood.err" | { grep -F '/v1/log' || true; } | wc -c)
    local requests rate
    requests=$(awk '/ requests in / { print $1 }' "$work/flood.txt")
    rate=$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$work/flood.txt")
    read -r p50 p99 device_rate <<< "$(percentiles "$work/device.txt")"
    printf '%-40s %7s %7s %9s %10s %12s\n' "$label" "$p50" "$p99" "$device_rate" "${rate:--}" \
      "$([ -n "$requests" ] && [ "$requests" -gt 0 ] && echo "$((after / requests))" || echo -)"
  }
  echo "== logflood: device GETs (wrk, 8 connections, ${seconds} s): alone, beside floods of 60 KB log posts, beside a flood of GET /health" >&2
  printf '%-40s %7s %7s %9s %10s %12s\n' "" "p50 ms" "p99 ms" "GETs/s" "flood/s" "log B/post"
  measure "idle"
  measure "log posts, 4 connections (issue's rate)" -c4 -s "$work/flood.lua" "http://127.0.0.1:$port/v1/log"
  measure "log posts, 32 connections" -c32 -s "$work/flood.lua" "http://127.0.0.1:$port/v1/log"
  measure "GET /health, 32 connections (baseline)" -c32 "http://127.0.0.1:$port/health"
}

# Two builds of `orders serve` under the same load, alternating, in the same run: a device's GET,
# the merchant API's read, and the consent flow's two pages (the sheet and the account picker,
# with a signed-in owner's session).
compare_section() {
  local before=$1 seconds=${2:-10} orders root archive store type id token
  [ -x "$before" ] || { echo "compare: $before is not an orders binary (build the earlier commit with swift build -c release)" >&2; exit 2; }
  echo "== compare: building orders (release)" >&2
  seeded_store compare seed.sqlite
  local after=$orders feed
  feed=$(cd ../Samples && pwd)/finance-feed.json
  # serve NAME BINARY → seeds NAME's store, starts the server, signs the owner in; sets
  # port_NAME, pid_NAME, key_NAME, cookie_NAME, authorize_NAME.
  serve() {
    local name=$1 binary=$2 port client pid db=(--store "$work/$1.sqlite")
    if [ "${COMPARE_BACKEND:-sqlite}" = postgresql ]; then
      local database="compare_${name}_$(date +%s%N)"
      psql "$ORDERS_TEST_POSTGRES" -qc "CREATE DATABASE $database" >/dev/null
      db=(--database "$(python3 -c 'import sys; h,_,q=sys.argv[1].partition("?"); print(h.rsplit("/",1)[0]+"/"+sys.argv[2]+("?"+q if q else ""))' \
        "$ORDERS_TEST_POSTGRES" "$database")")
    fi
    "$binary" add "${db[@]}" --trust-root "$root" "$archive" >/dev/null
    "$binary" finance import "${db[@]}" "$feed" >/dev/null
    printf 'correct horse battery\n' | "$binary" owner set-password "${db[@]}" --cost 4 >/dev/null
    client=$("$binary" finance clients create "${db[@]}" --name Budget --redirect-uri https://budget.example/callback --json \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientID"])')
    printf -v "key_$name" '%s' "$("$binary" keys create "${db[@]}" --order-type "$type" 2>/dev/null)"
    ORDERS_LOG_LEVEL=error "$binary" serve "${db[@]}" --port 0 > "$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    printf -v "pid_$name" '%s' "$pid"
    until grep -q listening "$work/$name.out" 2>/dev/null; do sleep 0.05; done
    port=$(sed 's/.*://' "$work/$name.out")
    printf -v "port_$name" '%s' "$port"
    printf -v "authorize_$name" '%s' "/finance/authorize?response_type=code&client_id=$client&redirect_uri=https%3A%2F%2Fbudget.example%2Fcallback&state=s&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
    printf -v "cookie_$name" '%s' "$(python3 - "$port" <<'PY'
import http.client, re, sys, urllib.parse
port = int(sys.argv[1])
connection = http.client.HTTPConnection("127.0.0.1", port)
connection.request("GET", "/finance/sign-in")
response = connection.getresponse()
page = response.read().decode()
cookies = dict(c.split(";")[0].split("=", 1) for c in response.headers.get_all("Set-Cookie") or [])
token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
body = urllib.parse.urlencode({"csrf_token": token, "next": "/finance/settings", "password": "correct horse battery"})
connection.request("POST", "/finance/sign-in", body, {
    "Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{port}",
    "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
response = connection.getresponse()
response.read()
for c in response.headers.get_all("Set-Cookie") or []:
    name, value = c.split(";")[0].split("=", 1)
    cookies[name] = value
assert response.status == 303 and "orders_session" in cookies, (response.status, cookies)
print(f"orders_session={cookies['orders_session']}")
PY
)"
  }
  serve before "$before"
  serve after "$after"
  trap 'kill "$pid_before" "$pid_after" 2>/dev/null; rm -rf "$work"' EXIT

  # load PORT PATH HEADER → "requests/s p99-ms"
  load() {
    wrk -t1 -c32 -d"${seconds}s" --latency -H "$3" "http://127.0.0.1:$1$2" > "$work/wrk.txt"
    awk '
      /Non-2xx or 3xx responses/ { failed = $NF }
      /Requests\/sec/ { rate = $2 }
      $1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms/, "", v) } else if (v ~ /s$/) { sub(/s/, "", v); v *= 1000 }; p99 = v }
      END { if (failed > 0) { print "wrk: " failed " answers were not 2xx" > "/dev/stderr"; exit 1 }; printf "%.0f %.2f", rate, p99 }' "$work/wrk.txt"
  }
  median() { sort -n | awk '{ line[NR] = $0 } END { print line[int((NR + 1) / 2)] }'; }

  echo "== compare: wrk, 1 thread, 32 connections, ${seconds} s per run, 3 rounds alternating, medians" >&2
  printf '%-34s %11s %7s %11s %7s %7s\n' "request" "before rps" "p99 ms" "after rps" "p99 ms" "after %"
  local row name which path header round
  for row in "GET order (device)|/v1/orders/$type/$id|Authorization: AppleOrder $token" \
             "containsOrder (merchant API)|/api/v1/orders/$type/$id|Authorization: Bearer KEY" \
             "consent sheet (owner session)|AUTHORIZE|Cookie: COOKIE" \
             "account picker (owner session)|AUTHORIZE_ACCOUNTS|Cookie: COOKIE"; do
    IFS='|' read -r name path header <<< "$row"
    for which in before after; do
      # (No ${x/pattern/replacement} here: bash 5.2 reads the URL's & in a replacement as the match.)
      local -n port_ref="port_$which" key_ref="key_$which" cookie_ref="cookie_$which" authorize_ref="authorize_$which"
      local p=$path h=$header
      case $path in
        AUTHORIZE) p=$authorize_ref ;;
        AUTHORIZE_ACCOUNTS) p="/finance/authorize/accounts?${authorize_ref#*\?}" ;;
      esac
      case $header in
        *KEY) h="Authorization: Bearer $key_ref" ;;
        *COOKIE) h="Cookie: $cookie_ref" ;;
      esac
      printf '%s|%s|%s\n' "$port_ref" "$p" "$h" > "$work/request-$which"
      unset -n port_ref key_ref cookie_ref authorize_ref
    done
    : > "$work/before.txt"; : > "$work/after.txt"
    for which in before after; do IFS='|' read -r port path header < "$work/request-$which"; load "$port" "$path" "$header" >/dev/null; done  # warm-up
    for round in 1 2 3; do
      for which in before after; do
        IFS='|' read -r port path header < "$work/request-$which"
        load "$port" "$path" "$header" >> "$work/$which.txt"; echo >> "$work/$which.txt"
      done
    done
    read -r before_rate before_p99 <<< "$(median < "$work/before.txt")"
    read -r after_rate after_p99 <<< "$(median < "$work/after.txt")"
    printf '%-34s %11s %7s %11s %7s %7s\n' "$name" "$before_rate" "$before_p99" "$after_rate" "$after_p99" \
      "$(awk -v a="$after_rate" -v b="$before_rate" 'BEGIN { printf "%.0f", 100 * a / b }')"
  done
  echo
}

# Authoring (issue 43): PATCH …/content {"status":…} through `orders serve` under wrk — signed with
# the store's identity, verified, saved — against the one-core RSA-2048 sign rate `openssl speed`
# measures in the same run (signing is the bound: one signature per version). One core (the
# server pinned with taskset, wrk on the other) and two (neither pinned); SQLite, PostgreSQL when
# run under Scripts/with-postgres.sh, and a key in SoftHSM2 through PKCS#11.
authoring_section() {
  local seconds=${1:-10} orders root pki source type=order.com.example.shop orders_count=64
  # Authored versions name the service's public URL (issue 52).
  local public_url=https://wallet.example.com
  command -v wrk >/dev/null || { echo "authoring: wrk is missing (Debian package wrk)" >&2; exit 2; }
  echo "== authoring: building orders (release)" >&2
  [ -n "${ORDERS_BINARY:-}" ] || (cd .. && swift build -c release --product orders >/dev/null 2>&1)
  orders="${ORDERS_BINARY:-$(cd .. && swift build -c release --show-bin-path)/orders}"
  pki=$(cd ../TestArchives/pki && pwd)
  root="$pki/root.pem"
  source=$(cd ../TestArchives/sources/small && pwd)

  # A SoftHSM2 token of the run's own holding the order key (PKCS#8, as softhsm2-util imports it).
  export SOFTHSM2_CONF="$work/softhsm2.conf"
  mkdir -p "$work/tokens"
  printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$work/tokens" > "$SOFTHSM2_CONF"
  softhsm2-util --init-token --free --label bench --pin 1234 --so-pin 5678 >/dev/null
  softhsm2-util --import "$pki/order.key" --token bench --label order-key --id 01 --pin 1234 >/dev/null
  # Private, as docs/authoring.md has operators keep them (a readable one is warned about).
  (umask 077 && echo 1234 > "$work/pin" && cp "$pki/order.key" "$work/order.key")

  # prepare STORE-ARGS KEY-ARGS... → the API key: the identity, and 64 orders' first versions.
  prepare() {
    local location=("$1" "$2"); shift 2
    "$orders" signing add "${location[@]}" --order-type "$type" --certificate "$pki/order.pem" \
      --intermediate "$pki/wwdr.pem" --trust-root "$root" "$@" >/dev/null
    local i
    for i in $(seq 0 $((orders_count - 1))); do
      sed -e "s/ORDER-123/BENCH-$i/" -e '/"webServiceURL"/d' "$source/order.json" > "$work/order.json"
      "$orders" author "${location[@]}" --type "$type" --id "BENCH-$i" "$work/order.json" --resources "$source" \
        --public-url "$public_url" --trust-root "$root" >/dev/null
    done
    "$orders" keys create "${location[@]}" --order-type "$type" 2>/dev/null
  }
  cat > "$work/patch.lua" <<'LUA'
counter = 0
request = function()
  counter = counter + 1
  local status = (counter % 2 == 0) and "completed" or "open"
  local path = "/api/v1/orders/order.com.example.shop/BENCH-" .. math.random(0, 63) .. "/content"
  return wrk.format("PATCH", path, {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/merge-patch+json"},
    '{"status":"' .. status .. '"}')
end
init = function(args) key = args[1] end
LUA
  # rate CPUS STORE-ARGS → authored versions/s (wrk, 16 connections; any non-2xx fails the run)
  rate() {
    local cpus=$1 key=$2; shift 2
    ORDERS_LOG_LEVEL=error $cpus "$orders" serve "$@" --trust-root "$root" --public-url "$public_url" --port 0 \
      > "$work/serve.out" 2>"$work/serve.err" &
    local pid=$!
    until grep -q listening "$work/serve.out" 2>/dev/null; do sleep 0.05; done
    local port
    port=$(sed 's/.*://' "$work/serve.out")
    local wrk_cpus=""
    [ -n "$cpus" ] && wrk_cpus="taskset -c 1"
    $wrk_cpus wrk -t1 -c16 -d"${seconds}s" -s "$work/patch.lua" "http://127.0.0.1:$port" -- "$key" > "$work/wrk.txt"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    if grep -q "Non-2xx" "$work/wrk.txt"; then
      echo "authoring: $(grep Non-2xx "$work/wrk.txt") ($(tail -3 "$work/serve.err"))" >&2; exit 1
    fi
    awk '/Requests\/sec/ { printf "%.0f", $2 }' "$work/wrk.txt"
  }
  local bound
  bound=$(taskset -c 0 openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { printf "%.0f", $(NF-1) }')
  echo "== authoring: PATCH {\"status\"} through orders serve, wrk 16 connections, ${seconds} s per run" >&2
  printf '%-34s %12s %12s %9s\n' "store, key" "1 core /s" "2 cores /s" "1 core %"
  row() {
    local name=$1; shift
    local key one two
    key=$(prepare "$@")
    one=$(rate "taskset -c 0" "$key" "${@:1:2}")
    two=$(rate "" "$key" "${@:1:2}")
    printf '%-34s %12s %12s %8s%%\n' "$name" "$one" "$two" "$(awk -v a="$one" -v b="$bound" 'BEGIN { printf "%.0f", 100 * a / b }')"
  }
  row "SQLite, PEM key file" --store "$work/authoring.sqlite" --key "$work/order.key"
  row "SQLite, SoftHSM2 (PKCS#11)" --store "$work/authoring-hsm.sqlite" --pkcs11-uri \
    "pkcs11:token=bench;object=order-key;type=private" --pkcs11-module /usr/lib/softhsm/libsofthsm2.so \
    --passphrase-file "$work/pin"
  if [ -n "${ORDERS_TEST_POSTGRES:-}" ]; then
    local name="bench_authoring_$(date +%s%N)" url
    psql "$ORDERS_TEST_POSTGRES" -qc "CREATE DATABASE $name" >/dev/null
    url=$(python3 -c 'import sys; h,_,q=sys.argv[1].partition("?"); print(h.rsplit("/",1)[0]+"/"+sys.argv[2]+("?"+q if q else ""))' \
      "$ORDERS_TEST_POSTGRES" "$name")
    row "PostgreSQL, PEM key file" --database "$url" --key "$work/order.key"
  else
    echo "(PostgreSQL: run under Scripts/with-postgres.sh for its row)" >&2
  fi
  echo "bound: openssl speed rsa2048, one core: $bound signs/s"
}

case "$section" in
  verify) verify_section ;;
  store) store_section ;;
  finance) finance_section ;;
  scaling) scaling_section ;;
  serve) serve_section "${2:-10}" ;;
  compare) compare_section "${2:?usage: Benchmarks/run.sh compare BEFORE-BINARY [S]}" "${3:-10}" ;;
  scaleout) scaleout_section "${2:-10}" ;;
  saves) saves_section "${2:-}" ;;
  logflood) logflood_section "${2:-10}" ;;
  delivery) delivery_section ;;
  pages) pages_section "${2:-10}" ;;
  authoring) authoring_section "${2:-10}" ;;
  all) verify_section; scaling_section; store_section; finance_section ;;
  *) echo "usage: Benchmarks/run.sh [verify [N] | scaling | store | finance | delivery | serve [S] | compare BEFORE [S] | scaleout [S] | saves [BEFORE] | logflood [S] | pages [S] | authoring [S]]" >&2; exit 2 ;;
esac
