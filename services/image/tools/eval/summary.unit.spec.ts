import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { drawSummaryTable, type SceneFigures, summariseDraw, worstOf } from './summary.js';

const scene = (name: string, over: Partial<SceneFigures> = {}): SceneFigures => ({
  name,
  iou: 0.98,
  levelErr: 0.5,
  colourError: 2,
  fringe: 1,
  peerIou: 0.97,
  flagged: false,
  failed: false,
  ...over,
});

describe('per-draw summary (eval)', () => {
  it('names the worst scene of each figure, flagged scenes included, and the flagged share', () => {
    const s = summariseDraw(4, [
      scene('a', { iou: 0.99, fringe: 0.5 }),
      scene('b', { iou: 0.9, levelErr: 8, flagged: true }),
      scene('c', { colourError: 6, fringe: 7 }),
      scene('d', { iou: 0.97 }),
    ]);
    assert.equal(s.draw, 4);
    assert.equal(s.scenes, 4);
    assert.deepEqual(s.iouWorst, { name: 'b', value: 0.9 });
    assert.deepEqual(s.levelWorst, { name: 'b', value: 8 });
    assert.deepEqual(s.colourWorst, { name: 'c', value: 6 });
    assert.deepEqual(s.fringeWorst, { name: 'c', value: 7 });
    assert.equal(s.iouMedian, 0.975);
    assert.equal(s.fringeMedian, 1);
    assert.equal(s.flaggedShare, 0.25);
  });

  it('compares the engine with the peer over the scenes both were measured on', () => {
    const rows = [
      scene('a', { iou: 0.99, peerIou: 0.98 }),
      scene('b', { iou: 0.95, peerIou: 0.97 }),
      scene('c', { iou: 0.5, peerIou: null }), // the peer failed here: not in the pair
    ];
    const s = summariseDraw(5, rows);
    assert.equal(s.peerScenes, 2);
    assert.equal(s.iouMedianBesidePeer, 0.97);
    assert.equal(s.peerMedian, 0.975);
    assert.equal(s.engineAtLeastPeer, false);
    assert.equal(s.iouMedian, 0.95);
    assert.equal(summariseDraw(5, [scene('a', { iou: 0.98, peerIou: 0.98 })]).engineAtLeastPeer, true);
  });

  it('has no verdict without the peer, and counts failed scenes apart from every figure', () => {
    const s = summariseDraw(6, [scene('a', { peerIou: null }), scene('b', { iou: null, failed: true, peerIou: null })]);
    assert.equal(s.engineAtLeastPeer, null);
    assert.equal(s.peerMedian, null);
    assert.equal(s.failed, 1);
    assert.equal(s.iouMedian, 0.98);
    const table = drawSummaryTable([s]);
    assert.match(table[2]!, /^\| 6 \| 2, 1 failed \| 0\.980 \|.*\| – \| – \| – \|$/);
  });

  it('picks the lowest of higher-is-better and the highest of lower-is-better figures', () => {
    const xs = [
      { name: 'a', value: 2 },
      { name: 'b', value: 1 },
      { name: 'c', value: 3 },
    ];
    assert.equal(worstOf(xs, 'high')?.name, 'b');
    assert.equal(worstOf(xs, 'low')?.name, 'c');
    assert.equal(worstOf([], 'low'), null);
  });
});
