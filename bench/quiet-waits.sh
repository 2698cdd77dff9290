#!/usr/bin/env bash
# The thread team's waits on a quiet machine (docs/decisions.md, "Two threads: the team's waits counted and
# the wake-up's cost measured ..."), for the lead's quiet sitting: about 5 minutes with nothing else running.
#   bash bench/quiet-waits.sh
# (1) a sleeping waiter's wake-up and what a poll buys (bench/wake-latency.ts); (2) the default polls against
# a poll for the next job and longer barrier polls, wall and CPU, with one thread for the speed-up
# (bench/spin-ab.ts); (3) the team's CPU per job and its ceiling, the polls counted in full (bench/team-profile.ts):
# its jobs' cpu0 + cpu1 against the loaded runs' tells whether two threads running at once cost more CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
uptime
npx tsx bench/wake-latency.ts 2000 20 300 0,2,50,200
npx tsx bench/spin-ab.ts scenes/honey-drop.json 5 24 2 a:50 a:50/p:50 a:200 --one
npx tsx bench/team-profile.ts scenes/honey-drop.json 8 22 2 --one
uptime
