#!/usr/bin/env bash
# One sitting beside the C++ peer, SPlisHSPlasH 2.16 (issue 28, "Done when"): its ViscousBunny against
# viscid's honey drop, alternated peer, viscid, peer, viscid: (a) the peer on one thread
# (OMP_NUM_THREADS=1), (b) `viscid bench honey-drop -e particle --frames 20 --warmup 2 --workers 1`,
# (c) the peer on two (OMP_NUM_THREADS=2), (d) viscid `--workers 2`; two rounds. It prints one table:
# ms a frame per 1 000 liquid particles for each (the peer: its `Time sum: SimStep` / 90 frames /
# 7.706 thousand particles; viscid: the bench's ms a frame / 9.328 thousand), viscid ÷ peer on one
# thread, each one's speed-up on two threads, viscid's bytes a point, the CPU model, `uptime` before
# and after. The runs themselves are bench/peer-sitting.ts's (--only bunny), which also records each
# run's CPU time (the figure to read under load) in the JSON it writes.
#
# Run it when the machine is QUIET (load average under about 1, nothing else running): the figures
# are wall-clock milliseconds, and the two-thread speed-ups mean nothing on a shared, loaded machine.
# About 2–3 minutes quiet on 2 cores (its trial, shortened, at a load of 11: one minute).
#
#   bash bench/peer-sitting.sh [SPHSimulator [scene.json]]
#
# Arguments or environment (an argument wins):
#   PEER_BIN      the peer's binary         (default /work/peer/SPlisHSPlasH/bin/SPHSimulator)
#   PEER_SCENE    its bench scene, every exporter off
#                 (default <PEER_BIN>/../data/Scenes/ViscousBunny_bench.json; written from
#                 ViscousBunny.json beside it when missing)
#   ROUNDS        rounds of the four runs   (default 2)
#   HONEY_FRAMES  viscid's timed frames     (default 20, after 2 warm-up frames)
#   PEER_SECONDS  the peer's simulated time (default 3, 90 frames at 30 fps)
#   OUT           the runs' JSON            (default out/peer-sitting.json)
# For a trial that only checks the script runs and parses: ROUNDS=1 HONEY_FRAMES=2 PEER_SECONDS=0.5.
# OMP_WAIT_POLICY and the rest of the environment reach the peer unchanged (peers.md's quiet figures
# were taken with libgomp's default, spinning, waits).
set -euo pipefail

PEER_BIN=${1:-${PEER_BIN:-/work/peer/SPlisHSPlasH/bin/SPHSimulator}}
PEER_SCENE=${2:-${PEER_SCENE:-$(dirname "$PEER_BIN")/../data/Scenes/ViscousBunny_bench.json}}
# Absolute before the cd below: the peer resolves a relative scene path against its own folder.
PEER_BIN=$(realpath -m -- "$PEER_BIN")
PEER_SCENE=$(realpath -m -- "$PEER_SCENE")
[[ -z "${OUT:-}" ]] || OUT=$(realpath -m -- "$OUT")
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS=${ROUNDS:-2}
HONEY_FRAMES=${HONEY_FRAMES:-20}
PEER_SECONDS=${PEER_SECONDS:-3}
OUT=${OUT:-out/peer-sitting.json} # the repository's out/ (git-ignored) unless OUT is given

[[ -x "$PEER_BIN" ]] || { echo "peer-sitting: no SPHSimulator at $PEER_BIN (build it: ../shared/peers.md)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "peer-sitting: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
if [[ ! -f "$PEER_SCENE" ]]; then
  bunny=$(dirname "$PEER_SCENE")/ViscousBunny.json
  [[ -f "$bunny" ]] || { echo "peer-sitting: neither $PEER_SCENE nor $bunny exists" >&2; exit 1; }
  # The peer's scene with every exporter off, beside the original (its model paths are relative).
  node -e '
    const fs = require("fs");
    const [src, dst] = process.argv.slice(1);
    const s = JSON.parse(fs.readFileSync(src, "utf8"));
    for (const k of ["enablePartioExport", "enableVTKExport", "enableRigidBodyExport", "enableRigidBodyVTKExport", "enableStateExport", "enableAsyncExport"]) s.Configuration[k] = false;
    fs.writeFileSync(dst, JSON.stringify(s, null, "\t") + "\n");
  ' "$bunny" "$PEER_SCENE"
  echo "peer-sitting: wrote $PEER_SCENE (ViscousBunny.json, every exporter off)" >&2
fi
if ! node --input-type=module -e 'const m = await import("./scripts/build.js"); process.exit(m.distIsFresh() ? 0 : 1)'; then
  echo "peer-sitting: warning: dist/ is older than src/ (or missing): viscid runs its sources through tsx; 'npm run build' first" >&2
fi

cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -1)
cores=$(nproc)
load1=$(cut -d' ' -f1 /proc/loadavg)
up_before=$(uptime)
echo "peer-sitting: $cpu, $cores cores; $up_before" >&2
if awk -v l="$load1" 'BEGIN { exit !(l > 1) }'; then
  echo "peer-sitting: warning: load average $load1 (above 1): the wall-clock figures and the speed-ups below mean little; read the CPU columns of bench/peer-sitting.ts's table" >&2
fi

npx tsx bench/peer-sitting.ts "$PEER_BIN" --only bunny --scene "$PEER_SCENE" --rounds "$ROUNDS" \
  --honey-frames "$HONEY_FRAMES" --peer-seconds "$PEER_SECONDS" --out "$OUT"
up_after=$(uptime)

node - "$OUT" "$cpu" "$cores" "$up_before" "$up_after" <<'EOF'
const fs = require('fs');
const [file, cpu, cores, before, after] = process.argv.slice(2);
const { runs, date } = JSON.parse(fs.readFileSync(file, 'utf8'));
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const pick = (who, threads) => runs.filter((r) => r.who === who && r.threads === threads);
// Wall ms a frame per 1 000 liquid particles (the peer's SimStep sum / frames; viscid's bench mean).
const per1k = (r) => (1000 * r.wallMsPerFrame) / r.liquid;
const cpuPer1k = (r) => (1000 * r.cpuMsPerFrame) / r.liquid;
const cell = (rs, f) => (rs.length ? `${fmt(mean(rs.map(f)))}${rs.length > 1 ? ` (${rs.map((r) => fmt(f(r))).join(', ')})` : ''}` : '–');
const speedup = (who) => mean(pick(who, 1).map((r) => r.wallMsPerFrame)) / mean(pick(who, 2).map((r) => r.wallMsPerFrame));
const ratio = (f) => mean(pick('viscid', 1).map(f)) / mean(pick('peer', 1).map(f));
const row = (who, name) => {
  const one = pick(who, 1), two = pick(who, 2), any = one[0] ?? two[0];
  const parts = any ? `${any.liquid}${any.objects ? ` + ${any.objects}` : ''}` : '–';
  const bytes = who === 'viscid' ? `${[one, two].map((rs) => (rs.length ? Math.round(mean(rs.map((r) => r.bytesPerPoint))) : '–')).join(' / ')}` : '–';
  return `| ${name} | ${parts} | ${cell(one, per1k)} | ${cell(two, per1k)} | ${fmt(speedup(who), 2)}× | ${bytes} | ${cell(one, cpuPer1k)} |`;
};
const lines = [
  '',
  `### Beside SPlisHSPlasH, one sitting (${date.slice(0, 16).replace('T', ' ')} UTC)`,
  '',
  `Machine: ${cpu}, ${cores} cores. uptime before: \`${before.trim()}\`; after: \`${after.trim()}\`.`,
  `Rounds: ${Math.max(...runs.map((r) => r.round))}, each peer 1 thread, viscid 1, peer 2, viscid 2. Peer: its \`Time sum: SimStep\` over ${runs.find((r) => r.who === 'peer')?.frames ?? '?'} frames; viscid: \`viscid bench honey-drop -e particle --frames ${runs.find((r) => r.who === 'viscid')?.frames ?? '?'} --warmup 2 --workers N\`, its mean ms a frame.`,
  '',
  '| run | liquid (+ object) particles | wall ms a frame per 1 000 liquid, 1 thread (rounds) | 2 threads (rounds) | speed-up on 2 threads | bytes a point (1 / 2 threads) | CPU ms per 1 000 liquid, 1 thread |',
  '|---|---:|---:|---:|---:|---:|---:|',
  row('peer', 'SPlisHSPlasH ViscousBunny'),
  row('viscid', 'viscid honey drop'),
  '',
  `**viscid ÷ peer per liquid particle, one thread: ${fmt(ratio(per1k), 2)}× wall** (${fmt(ratio(cpuPer1k), 2)}× in CPU time). ` +
    `Two threads: the peer ${fmt(speedup('peer'), 2)}×, viscid ${fmt(speedup('viscid'), 2)}× its one-thread speed.`,
];
process.stdout.write(`${lines.join('\n')}\n`);
EOF
