#!/usr/bin/env bash
# Test files of two checkouts, alternated, each run alone (`npx vitest run FILE`, one worker):
# CPU seconds (user + system, children included: node and its spawned CLIs, by /usr/bin/time; plus
# Chromium's, as the global setup reports it) and wall; the load average beside each. Usage (from the branch's checkout):
#   bash bench/suite-ab.sh A_DIR B_DIR ROUNDS FILE [FILE…]
# e.g. bash bench/suite-ab.sh /tmp/main . 2 tests/parallel/app-threads.test.ts
# A file missing from a checkout is reported as such; FILE may be A.test.ts+B.test.ts (both run
# in one vitest, one after the other; on a side that lacks one, the other alone). Prints one line a run: side file cpu wall load; vitest's output stays in /tmp/suite-ab.PID.SIDE.ROUND.FILE.log.
# SUITE_AB_TOGETHER=1 runs A and B of a file at the same time (the same minutes, the same load;
# half the wall of alternating them where the load makes a browser file take minutes).
set -uo pipefail
A=$(cd "$1" && pwd); B=$(cd "$2" && pwd); ROUNDS=$3; shift 3
# One run of FILE on SIDE in ROUND: prints its line.
one() {
  local f=$1 side=$2 r=$3 dir=$A files g load log t plain ok chromium u s e
  [ "$side" = B ] && dir=$B
  # FILE may be several joined by '+' (run together in one vitest, one worker, those of them
  # that the checkout has): a file merged into another on one side.
  files=(); for g in ${f//+/ }; do [ -f "$dir/$g" ] && files+=("$g"); done
  if [ ${#files[@]} -eq 0 ]; then echo "$side $f missing"; return; fi
  load=$(cut -d' ' -f1 /proc/loadavg)
  log=/tmp/suite-ab.$$.$side.$r.$(basename "${files[0]}" .test.ts).log # vitest's output, per-test times included
  (cd "$dir" && /usr/bin/time -o /tmp/suite-ab.$$.$side.time -f '%U %S %e' nice npx vitest run "${files[@]}" --maxWorkers=1 >$log 2>&1)
  t=$(tail -1 /tmp/suite-ab.$$.$side.time)
  plain=$(sed 's/\x1b\[[0-9;]*m//g' $log)
  ok=$(grep -Eo 'Tests +[0-9]+ (passed|failed).*' <<<"$plain" | head -1)
  # Chromium (started by the global setup through playwright) is not among the CPU time's
  # waited-for children; the setup prints its processes' CPU when it closes it.
  chromium=$(grep -Eo 'Chromium used [0-9.]+' <<<"$plain" | grep -Eo '[0-9.]+$' || echo 0)
  read -r u s e <<<"$t"
  printf '%s %s cpu %.1f (node %.1f + chromium %.1f) wall %.1f load %s (%s)\n' "$side" "$f" "$(echo "$u + $s + ${chromium:-0}" | bc)" "$(echo "$u + $s" | bc)" "${chromium:-0}" "$e" "$load" "$ok"
}
for f in "$@"; do
  for ((r = 1; r <= ROUNDS; r++)); do
    if [ "${SUITE_AB_TOGETHER:-}" = 1 ]; then
      one "$f" A "$r" & one "$f" B "$r"; wait
    else
      one "$f" A "$r"; one "$f" B "$r"
    fi
  done
done
