#!/usr/bin/env bash
# The edit-and-test cycle's build, before and after a change to how the tests are built (issue 45:
# one integration test binary instead of one per file), measured in one run.
#
# Extracts BEFORE and AFTER (default: the commit before tests/it/main.rs came, and HEAD) into folders
# of their own (git archive), builds each in a target folder of its own (`cargo test --no-run`, not timed),
# then, ROUNDS times (default 3) and alternating before/after so that the machine's other load falls
# on both alike: touches one source file of the library (src/vocabulary/json.rs, no content change)
# and times `cargo test --no-run`. Prints every figure, the medians and their ratio, and the number and
# size of the test binaries each leaves in target/debug/deps.
#
#   scripts/test-cycle.sh                       # BEFORE=<the commit before tests/it>, AFTER=HEAD
#   BEFORE=<rev> AFTER=<rev> ROUNDS=5 scripts/test-cycle.sh
#   SEED_FROM=<a target folder> ...             # copies its dependencies' libraries (debug/deps/lib*,
#                                               # debug/build, debug/.fingerprint) into both target
#                                               # folders first, so dependencies are not rebuilt
#
# Work goes into TEST_CYCLE_DIR (default target/test-cycle): the two source folders and the two target
# folders, kept for a rerun (remove the folder to reclaim the space: some GB).
set -euo pipefail
cd "$(dirname "$0")/.."

after="$(git rev-parse "${AFTER:-HEAD}")"
# The default BEFORE: the parent of the commit that made the tests one binary (added tests/it/main.rs).
first="$(git log --format=%H --diff-filter=A "$after" -- tests/it/main.rs | tail -n 1)"
before="$(git rev-parse "${BEFORE:-$first^}")"
if [ "$before" = "$after" ]; then
  echo "test-cycle: BEFORE and AFTER are the same commit ($before); set BEFORE=<rev>" >&2
  exit 1
fi
rounds="${ROUNDS:-3}"
touched="src/vocabulary/json.rs"
work="${TEST_CYCLE_DIR:-target/test-cycle}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"

checkout() { # side rev: the commit's tracked files, as `cargo package` would see them
  local dir="$work/src-$1"
  if [ "$(cat "$dir/.test-cycle-rev" 2>/dev/null)" != "$2" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    git archive "$2" | tar -x -C "$dir"
    echo "$2" >"$dir/.test-cycle-rev"
  fi
}

build() { # side -> seconds of `cargo test --no-run`
  local start end
  start="$(date +%s.%N)"
  (cd "$work/src-$1" && CARGO_TARGET_DIR="$work/target-$1" cargo test --locked --no-run --quiet >/dev/null 2>"$work/$1.log") \
    || { echo "test-cycle: cargo test --no-run failed for $1; see $work/$1.log" >&2; exit 1; }
  end="$(date +%s.%N)"
  echo "$end - $start" | bc
}

binaries() { # side -> "count bytes" of the test binaries cargo reports
  (cd "$work/src-$1" && CARGO_TARGET_DIR="$work/target-$1" cargo test --locked --no-run 2>&1) \
    | sed -n 's/^ *Executable \(.*\) (\(.*\))$/\1\t\2/p' \
    | while IFS="$(printf '\t')" read -r what path; do
        printf '%s\t%s\n' "$what" "$(stat -c %s "$path")"
      done
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "before: $(git log -1 --format='%h %s' "$before" | cut -c1-100)"
echo "after:  $(git log -1 --format='%h %s' "$after" | cut -c1-100)"
echo "cores: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

for side in before after; do
  checkout "$side" "$([ "$side" = before ] && echo "$before" || echo "$after")"
  if [ -n "${SEED_FROM:-}" ] && [ ! -d "$work/target-$side/debug/deps" ]; then
    mkdir -p "$work/target-$side/debug/deps"
    cp -a --reflink=auto "$SEED_FROM/debug/build" "$SEED_FROM/debug/.fingerprint" "$work/target-$side/debug/"
    # The dependencies' libraries only: no test or binary executable of the seed's own builds.
    find "$SEED_FROM/debug/deps" -maxdepth 1 \( -name 'lib*' -o -name '*.so' \) \
      -exec cp -a --reflink=auto -t "$work/target-$side/debug/deps/" {} +
  fi
  echo "== warming $side (not timed)"
  build "$side" >/dev/null
done

declare -A times
for round in $(seq 1 "$rounds"); do
  # Alternate which side goes first, so that neither always follows the other's load.
  if [ $((round % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for side in $order; do
    touch "$work/src-$side/$touched"
    seconds="$(build "$side")"
    times[$side]="${times[$side]:-} $seconds"
    printf 'round %d  %-6s  touch %s; cargo test --no-run: %6.1f s  (load %s)\n' \
      "$round" "$side" "$touched" "$seconds" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done

echo
for side in before after; do
  m="$(tr ' ' '\n' <<<"${times[$side]}" | grep . | median)"
  printf '%-6s  median %6.1f s  (each: %s)\n' "$side" "$m" "$(tr ' ' '\n' <<<"${times[$side]}" | grep . | xargs printf '%.1f ' )"
  declare "median_$side=$m"
done
printf 'ratio   before / after = %.1f\n' "$(echo "$median_before / $median_after" | bc -l)"

echo
for side in before after; do
  binaries "$side" >"$work/$side.binaries"
  all="$(awk -F'\t' '{ s += $2; n++ } END { printf "%d, %.0f MiB", n, s / 1048576 }' "$work/$side.binaries")"
  integration="$(grep -v '^unittests ' "$work/$side.binaries" | awk -F'\t' '{ s += $2; n++ } END { printf "%d, %.0f MiB", n, s / 1048576 }')"
  printf '%-6s  test binaries: %s (integration tests: %s); target/debug/deps: %s\n' \
    "$side" "$all" "$integration" "$(du -sh "$work/target-$side/debug/deps" | cut -f1)"
done
