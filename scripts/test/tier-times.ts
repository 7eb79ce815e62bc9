// Where a run's time goes, per tier (the `.X.spec.` part of a file's name): files, their summed
// time, and the wall-clock span from the first file's start to the last one's end (files of a tier
// run side by side, so the span is what the tier costs the run). Printed by the summary reporter.

export interface FileTime {
  /** The test file's path (or module id). */
  file: string;
  /** Its own time: import, set-up and every test and hook, in ms. */
  durationMs: number;
  /** When it started and ended (epoch ms), where known. */
  startMs?: number;
  endMs?: number;
}

export interface TierTime {
  tier: string;
  files: number;
  summedMs: number;
  /** From the tier's first start to its last end; undefined where no file had both. */
  elapsedMs: number | undefined;
}

/** The tiers in the order a run takes them; another tier found in a name comes after them. */
export const TIER_ORDER = ['unit', 'int', 'e2e', 'fault', 'k8s', 'container'];

/** The tier of a spec file's name (`a/b.int.spec.ts` is `int`); `other` for a name without one. */
export function tierOf(file: string): string {
  return /\.([a-z0-9]+)\.spec\.[cm]?[jt]sx?$/.exec(file)?.[1] ?? 'other';
}

export function tierTimes(files: FileTime[]): TierTime[] {
  const byTier = new Map<string, FileTime[]>();
  for (const f of files) byTier.set(tierOf(f.file), [...(byTier.get(tierOf(f.file)) ?? []), f]);
  const rank = (t: string) => (TIER_ORDER.includes(t) ? TIER_ORDER.indexOf(t) : TIER_ORDER.length);
  return [...byTier]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([tier, fs]) => ({ tier, files: fs.length, summedMs: sum(fs.map((f) => f.durationMs)), elapsedMs: span(fs) }));
}

/** One line per tier and a total line, e.g. `  int    42 files   310.2 s summed   95.0 s elapsed`. */
export function formatTierTimes(tiers: TierTime[], totalElapsedMs?: number): string[] {
  const seconds = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
  const line = (name: string, files: number, summed: number, elapsed: number | undefined) =>
    `  ${name.padEnd(6)} ${String(files).padStart(4)} files ${seconds(summed).padStart(10)} summed ${seconds(elapsed).padStart(10)} elapsed`;
  const total = {
    files: sum(tiers.map((t) => t.files)),
    summed: sum(tiers.map((t) => t.summedMs)),
  };
  return [
    'Time per tier:',
    ...tiers.map((t) => line(t.tier, t.files, t.summedMs, t.elapsedMs)),
    line('total', total.files, total.summed, totalElapsedMs),
  ];
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function span(files: FileTime[]): number | undefined {
  const timed = files.filter((f) => f.startMs !== undefined && f.endMs !== undefined);
  if (timed.length === 0) return undefined;
  return Math.max(...timed.map((f) => f.endMs!)) - Math.min(...timed.map((f) => f.startMs!));
}
