#!/usr/bin/env bash
# Instructions per hand, by callgrind: counts that do not depend on the
# machine or its load (the same binary and inputs give the same count).
#   usage (from the project root): benches/instructions.sh [CONFIG...]
# Each CONFIG is what follows `unolab sim` (default: the configurations of
# the performance notes). A hand is counted once the memo has seen a
# thousand: (instructions of 2,000 hands - those of 1,000) / 1,000, with
# 4 players, one thread and seed 7.
set -euo pipefail
cargo build --profile profiling --quiet --bin unolab
bin=${CARGO_TARGET_DIR:-target}/profiling/unolab
configs=("$@")
if [[ ${#configs[@]} -eq 0 ]]; then
  configs=(
    "classic"
    "classic -r stacking -r seven-o -r jump-in"
    "flex"
    "flip"
    "express"
    "classic -r stacking -r seven-o -r jump-in -r draw-to-match -r force-play -r deflect -r multi-play -r no-action-finish"
  )
fi
count() {
  local out
  out=$(mktemp)
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" sim $1 -p 4 -j 1 --seed 7 -n "$2" >/dev/null 2>&1
  callgrind_annotate "$out" 2>/dev/null | sed -n 's/^\([0-9,]*\) (100.0%).*PROGRAM TOTALS.*/\1/p' | tr -d ,
  rm -f "$out"
}
for config in "${configs[@]}"; do
  a=$(count "$config" 1000)
  b=$(count "$config" 2000)
  printf '%-60s %10d instructions per hand\n' "$config" $(((b - a) / 1000))
done
