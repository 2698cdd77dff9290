/** Number and size formatting shared by the CLI's summaries and progress lines. */

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function fmtBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(u === 0 ? 0 : 1)} ${units[u]}`;
}

/** Seconds as `1h02m`, `3m05s`, `12.3s`. */
export function fmtDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${String(Math.round(seconds - 60 * m)).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h${String(m - 60 * h).padStart(2, '0')}m`;
}

export function fmtVec(v: ArrayLike<number>, digits = 3): string {
  return `[${Array.from(v, (x) => Number(x.toFixed(digits))).join(', ')}]`;
}
