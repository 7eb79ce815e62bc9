import { median } from './metrics.js';

/** One synthetic scene's figures, as the eval measured them (null: not measured). */
export interface SceneFigures {
  name: string;
  iou: number | null;
  levelErr: number | null;
  colourError: number | null;
  fringe: number | null;
  /** The peer's IoU on the same scene (peer.ts); null when the peer was off or failed. */
  peerIou: number | null;
  /** The engine failed one of its own checks on this scene (it said it was unsure). */
  flagged: boolean;
  /** The engine refused or failed the scene: no figures of its own. */
  failed: boolean;
}

export interface Named {
  name: string;
  value: number;
}

/**
 * One draw of scenes in the figures the "done when" is read from. The worst scenes count
 * every scene, flagged or not (a product left askew and flagged is still askew in the result); the
 * flagged share is beside them. The engine beats the peer on a draw when its median IoU is at
 * least the peer's, over the scenes both were measured on.
 */
export interface DrawSummary {
  draw: number;
  scenes: number;
  /** Scenes the engine refused or failed (counted in `scenes`, absent from every figure). */
  failed: number;
  iouMedian: number | null;
  iouWorst: Named | null;
  levelWorst: Named | null;
  colourWorst: Named | null;
  flaggedShare: number;
  fringeMedian: number | null;
  fringeWorst: Named | null;
  peerScenes: number;
  /** The engine's median IoU over the scenes the peer was measured on (the pair to compare). */
  iouMedianBesidePeer: number | null;
  peerMedian: number | null;
  peerWorst: Named | null;
  engineAtLeastPeer: boolean | null;
}

type Key = 'iou' | 'levelErr' | 'colourError' | 'fringe' | 'peerIou';

const valued = (rows: SceneFigures[], key: Key): Named[] =>
  rows.flatMap((r) => (typeof r[key] === 'number' && !Number.isNaN(r[key]) ? [{ name: r.name, value: r[key] }] : []));

/** The lowest (better 'high') or highest (better 'low') value, the first such scene on a tie. */
export function worstOf(xs: Named[], better: 'high' | 'low'): Named | null {
  if (xs.length === 0) return null;
  return xs.reduce((a, b) => ((better === 'high' ? b.value < a.value : b.value > a.value) ? b : a));
}

const medianOf = (xs: Named[]) => (xs.length ? median(xs.map((x) => x.value)) : null);

export function summariseDraw(draw: number, rows: SceneFigures[]): DrawSummary {
  const iou = valued(rows, 'iou');
  const fringe = valued(rows, 'fringe');
  const peer = valued(rows, 'peerIou');
  const both = rows.filter((r) => r.iou !== null && r.peerIou !== null);
  const iouBeside = medianOf(valued(both, 'iou'));
  const peerMedian = medianOf(valued(both, 'peerIou'));
  return {
    draw,
    scenes: rows.length,
    failed: rows.filter((r) => r.failed).length,
    iouMedian: medianOf(iou),
    iouWorst: worstOf(iou, 'high'),
    levelWorst: worstOf(valued(rows, 'levelErr'), 'low'),
    colourWorst: worstOf(valued(rows, 'colourError'), 'low'),
    flaggedShare: rows.length ? rows.filter((r) => r.flagged).length / rows.length : 0,
    fringeMedian: medianOf(fringe),
    fringeWorst: worstOf(fringe, 'low'),
    peerScenes: both.length,
    iouMedianBesidePeer: iouBeside,
    peerMedian,
    peerWorst: worstOf(peer, 'high'),
    engineAtLeastPeer: iouBeside === null || peerMedian === null ? null : iouBeside >= peerMedian,
  };
}

const num = (v: number | null, digits: number) => (v === null ? '–' : v.toFixed(digits));
const named = (v: Named | null, digits: number) => (v === null ? '–' : `${v.value.toFixed(digits)} (${v.name})`);

/**
 * The per-draw summaries as a Markdown table, one row a draw. The engine's median IoU is given
 * twice where the peer ran on fewer scenes than the engine: over every scene, and over the scenes
 * both were measured on (the pair the verdict compares).
 */
export function drawSummaryTable(summaries: DrawSummary[]): string[] {
  return [
    '| draw | scenes | IoU median | IoU worst | level worst ° | colour worst ΔE00 | flagged | fringe median | fringe worst | peer IoU median (engine beside) | peer IoU worst | engine ≥ peer |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...summaries.map((s) => {
      const beside =
        s.peerMedian === null ? '–' : `${num(s.peerMedian, 3)} (${num(s.iouMedianBesidePeer, 3)}, ${s.peerScenes})`;
      const verdict = s.engineAtLeastPeer === null ? '–' : s.engineAtLeastPeer ? 'yes' : 'NO';
      const failed = s.failed ? `, ${s.failed} failed` : '';
      return `| ${s.draw} | ${s.scenes}${failed} | ${num(s.iouMedian, 3)} | ${named(s.iouWorst, 3)} | ${named(s.levelWorst, 2)} | ${named(s.colourWorst, 2)} | ${(100 * s.flaggedShare).toFixed(0)}% | ${num(s.fringeMedian, 2)} | ${named(s.fringeWorst, 2)} | ${beside} | ${named(s.peerWorst, 3)} | ${verdict} |`;
    }),
  ];
}
