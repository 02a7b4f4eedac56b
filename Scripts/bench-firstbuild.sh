#!/usr/bin/env bash
# Issue #23's first build: a clean clone's `make demo` (the apt step already done), timed against
# the baseline the issue names — `make demo` of a clone before the change (BASE, default 1b8ce31:
# a release build with postgres-nio, SwiftNIO and BoringSSL) — in the same run, one after the
# other. Each clone starts with no .build; SwiftPM's package copies come from the machine's local
# mirror as in CI. Prints wall and CPU seconds and the ratio.
#
#   Scripts/bench-firstbuild.sh [BASE]        (make bench BENCH=firstbuild)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=${1:-1b8ce31}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

run() {  # name rev → prints "name wall cpu"
  local name=$1 rev=$2 dir=$WORK/$1
  git clone -q "$ROOT" "$dir"
  git -C "$dir" checkout -q "$rev"
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$WORK/$name.cpu" make -C "$dir" demo >"$WORK/$name.log" 2>&1 \
    || { echo "bench: make demo failed in the $name clone:"; tail -20 "$WORK/$name.log"; exit 1; }
  end=$(date +%s.%N)
  local cpu; cpu=$(awk '{print $1 + $2}' "$WORK/$name.cpu")
  echo "$name $(echo "$end - $start" | bc) $cpu"
  rm -rf "$dir"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
now=$(run now "$(git -C "$ROOT" rev-parse HEAD)")
base=$(run base "$BASE")
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %10s %10s\n' "make demo, clean clone" "wall (s)" "CPU (s)"
read -r _ nw nc <<<"$now"; read -r _ bw bc_ <<<"$base"
printf '%-28s %10.0f %10.0f\n' "this commit" "$nw" "$nc" "baseline $BASE" "$bw" "$bc_"
printf '%-28s %10.2f %10.2f\n' "ratio" "$(echo "$nw / $bw" | bc -l)" "$(echo "$nc / $bc_" | bc -l)"
