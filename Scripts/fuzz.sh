#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser that faces outside bytes (FuzzTesting/README.md).
#
#   Scripts/fuzz.sh TARGET SECONDS     one target, e.g. Scripts/fuzz.sh FuzzZipArchive 3600
#   Scripts/fuzz.sh all SECONDS        every target, two at a time (CI: Scripts/fuzz.sh all 40)
#   Scripts/fuzz.sh list               the targets
#
# Builds FuzzTesting/ with `-sanitize=fuzzer,address` into .build-fuzz/, replays the inputs of
# FuzzTesting/Regressions/TARGET/ (every crash ever found), then fuzzes for SECONDS from the
# committed seeds (FuzzTesting/Corpus/TARGET) plus what earlier local runs found
# (.build-fuzz/corpus/TARGET). A crash leaves its input in .build-fuzz/artifacts/TARGET/ and makes
# the script exit 1; logs are in .build-fuzz/logs/. Each target ends with one summary line:
# executions, executions/s, coverage (edges), features, corpus size, peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(FuzzZipArchive FuzzManifest FuzzJSON FuzzOrderJSON FuzzSignature FuzzSignatureDifferential FuzzOrderVerifier FuzzFinanceFeed FuzzServiceRequest)
usage() { echo "usage: Scripts/fuzz.sh TARGET|all SECONDS | list  (targets: ${targets[*]})" >&2; exit 2; }
[ "${1:-}" = list ] && { printf '%s\n' "${targets[@]}"; exit 0; }
[ $# -eq 2 ] || usage
[[ "$2" =~ ^[0-9]+$ ]] || usage
selected=()
if [ "$1" = all ]; then selected=("${targets[@]}"); else
  for target in "${targets[@]}"; do [ "$target" = "$1" ] && selected=("$1"); done
  [ ${#selected[@]} -eq 1 ] || usage
fi
seconds=$2
build=.build-fuzz

./Scripts/setup.sh
echo "fuzz: building FuzzTesting (debug, -sanitize=fuzzer,address)" >&2
# lld: gold stops with an internal error on the sanitized debug objects. A failed build stops the
# script: the targets left from an earlier build would otherwise be fuzzed as if they were new.
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
build_targets() {
  swift build -c debug --package-path FuzzTesting --build-path "$build" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld > "$build_log" 2>&1
}
if ! build_targets; then
  # A source file of the package removed since the last build leaves a plan naming it ("missing
  # inputs"); planning again from scratch recovers.
  if grep -q "because of missing inputs" "$build_log"; then
    rm -f "$build/debug.yaml" "$build"/*/debug/description.json
    build_targets || true
  fi
fi
grep -E "error|warning: .*FuzzTesting" "$build_log" >&2 || true
grep -q "error:" "$build_log" && { echo "fuzz: FuzzTesting did not build" >&2; exit 1; }
bin=$(swift build -c debug --package-path FuzzTesting --build-path "$build" --show-bin-path)
for target in "${selected[@]}"; do
  [ -x "$bin/$target" ] || { echo "fuzz: $target did not build" >&2; exit 1; }
done

# options TARGET → the dictionary and the longest input for that target
options() {
  case $1 in
    FuzzZipArchive | FuzzOrderVerifier) echo "-dict=FuzzTesting/Dictionaries/zip.dict -max_len=16384" ;;
    FuzzSignature | FuzzSignatureDifferential) echo "-dict=FuzzTesting/Dictionaries/der.dict -max_len=8192" ;;
    FuzzServiceRequest) echo "-dict=FuzzTesting/Dictionaries/json.dict -max_len=4096" ;;
    *) echo "-dict=FuzzTesting/Dictionaries/json.dict -max_len=16384" ;;
  esac
}

# run TARGET → fuzzes, prints the summary line; exit status 1 on a crash
run() {
  local target=$1 log="$build/logs/$1.log" corpus="$build/corpus/$1" artifacts="$build/artifacts/$1/"
  mkdir -p "$build/logs" "$corpus" "$artifacts"
  local regressions=(FuzzTesting/Regressions/"$target"/*)
  if [ -e "${regressions[0]}" ]; then
    if ! "$bin/$target" -runs=1 "${regressions[@]}" > "$log.regressions" 2>&1; then
      echo "$target: a regression input fails again (see $log.regressions)"
      return 1
    fi
  fi
  # shellcheck disable=SC2046 # options are words
  if "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts" $(options "$target") "$corpus" "FuzzTesting/Corpus/$target" > "$log" 2>&1; then
    local status=ok
  else
    local status="CRASH: $(ls -t "$artifacts" | head -1 | sed "s|^|$artifacts|") (reproduce: $bin/$target FILE; log $log)"
  fi
  awk -v target="$target" -v status="${status:-ok}" '
    / DONE / || /^#[0-9]+/ { for (i = 1; i <= NF; i++) { if ($i == "cov:") cov = $(i + 1); if ($i == "ft:") ft = $(i + 1); if ($i == "corp:") corp = $(i + 1) } }
    /stat::number_of_executed_units:/ { runs = $2 }
    /stat::average_exec_per_sec:/ { rate = $2 }
    /stat::peak_rss_mb:/ { rss = $2 }
    END { printf "%-20s %12s runs %8s/s  cov %6s  ft %7s  corpus %6s  rss %5s MB  %s\n", target, runs, rate, cov, ft, corp, rss, status }' "$log"
  [ "${status:-ok}" = ok ]
}

# The Swift backtracer and ASan both want the crashing thread; let ASan report. Leaks are checked
# after every input that allocates more than it frees (libFuzzer's -detect_leaks), not at exit:
# at exit LSan reports objects that process-lifetime globals still hold through Swift enum
# payloads, whose spare-bit tags hide the pointer from it (FuzzTesting/README.md, "Leaks").
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-leak_check_at_exit=0}

failed=0
if [ ${#selected[@]} -gt 1 ]; then
  # Two at a time: the machine's two cores.
  export -f run options; export bin build seconds
  printf '%s\n' "${selected[@]}" | xargs -P 2 -I{} bash -c 'run "$@"' _ {} || failed=1
else
  run "${selected[0]}" || failed=1
fi
exit $failed
