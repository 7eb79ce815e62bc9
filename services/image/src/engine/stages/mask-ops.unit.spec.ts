import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import type { Box, Mask } from '../types.js';
import { boundingBox, components, dilate, erode, paintComponents, rowRuns } from './mask-ops.js';
import { mirrorScore } from './straighten.js';

/** Pixel-by-pixel flood fill: slow and obviously right, the oracle for the run-based version. */
function referenceComponents(m: Mask, inside: (v: number) => boolean) {
  const { width: w, height: h, data } = m;
  const labels = new Int32Array(w * h);
  const areas = [0],
    boxes: Box[] = [{ left: 0, top: 0, right: 0, bottom: 0 }],
    touches = [false];
  let count = 0;
  for (let start = 0; start < w * h; start++) {
    if (labels[start] !== 0 || !inside(data[start]!)) continue;
    labels[start] = ++count;
    const stack = [start];
    let n = 0,
      l = w,
      t = h,
      r = -1,
      b = -1,
      border = false;
    while (stack.length) {
      const p = stack.pop()!,
        x = p % w,
        y = (p - x) / w;
      n++;
      l = Math.min(l, x);
      r = Math.max(r, x);
      t = Math.min(t, y);
      b = Math.max(b, y);
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) border = true;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1]) {
        if (q >= 0 && labels[q] === 0 && inside(data[q]!)) {
          labels[q] = count;
          stack.push(q);
        }
      }
    }
    areas.push(n);
    boxes.push({ left: l, top: t, right: r + 1, bottom: b + 1 });
    touches.push(border);
  }
  return { labels, count, areas, boxes, touchesBorder: touches };
}

function referenceMirrorScore(m: Mask, axis: number): number {
  let overlap = 0,
    total = 0;
  const twice = Math.round(2 * axis);
  for (let y = 0; y < m.height; y++)
    for (let x = 0; x < m.width; x++) {
      if (m.data[y * m.width + x]! <= 127) continue;
      total++;
      const mx = twice - x - 1;
      if (mx >= 0 && mx < m.width && m.data[y * m.width + mx]! > 127) overlap++;
    }
  return total === 0 ? 0 : overlap / total;
}

const masks = fc
  .record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 24 }) })
  .chain(({ width, height }) =>
    fc.uint8Array({ minLength: width * height, maxLength: width * height }).map((data) => ({ width, height, data })),
  );

/** Square min/max by brute force; outside the mask is ignored (erode) or unset (dilate). */
function referenceMorph(m: Mask, r: number, max: boolean): number[] {
  const out: number[] = [];
  for (let y = 0; y < m.height; y++)
    for (let x = 0; x < m.width; x++) {
      let any = false,
        all = true;
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const xx = x + dx,
            yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= m.width || yy >= m.height) continue;
          const set = m.data[yy * m.width + xx]! > 0;
          any ||= set;
          all &&= set;
        }
      out.push((max ? any : all) ? 255 : 0);
    }
  return out;
}

describe('mask operations', () => {
  it('erodes and dilates with a square exactly as brute force does', () => {
    fc.assert(
      fc.property(masks, fc.integer({ min: 0, max: 6 }), (m, r) => {
        assert.deepEqual(Array.from(dilate(m, r).data), r === 0 ? Array.from(m.data) : referenceMorph(m, r, true));
        assert.deepEqual(Array.from(erode(m, r).data), r === 0 ? Array.from(m.data) : referenceMorph(m, r, false));
      }),
      { numRuns: 200 },
    );
  });

  it('erodes and dilates a small shape away from the borders as brute force does', () => {
    // a few set pixels in a larger frame: the filters visit only the shape's box grown by r
    const sparse = fc
      .record({ width: fc.integer({ min: 1, max: 40 }), height: fc.integer({ min: 1, max: 40 }) })
      .chain(({ width, height }) =>
        fc.array(fc.nat(width * height - 1), { maxLength: 12 }).map((set) => ({
          width,
          height,
          data: Uint8Array.from({ length: width * height }, (_, i) => (set.includes(i) ? 255 : 0)),
        })),
      );
    fc.assert(
      fc.property(sparse, fc.integer({ min: 1, max: 6 }), (m, r) => {
        assert.deepEqual(Array.from(dilate(m, r).data), referenceMorph(m, r, true));
        assert.deepEqual(Array.from(erode(m, r).data), referenceMorph(m, r, false));
      }),
      { numRuns: 300 },
    );
  });

  it('erodes and dilates with windows taller than a byte can count as brute force does', () => {
    // counts of up to 2r + 1 set pixels go four columns to a 32-bit word while they fit in a byte
    // (r <= 127); taller windows are counted column by column
    const tall = fc
      .record({ width: fc.integer({ min: 1, max: 3 }), height: fc.integer({ min: 250, max: 280 }) })
      .chain(({ width, height }) =>
        fc
          .uint8Array({ minLength: width * height, maxLength: width * height })
          .map((d) => ({ width, height, data: d.map((v) => (v < 40 ? 0 : 255)) })),
      );
    fc.assert(
      fc.property(tall, fc.integer({ min: 125, max: 129 }), (m, r) => {
        assert.deepEqual(Array.from(dilate(m, r).data), referenceMorph(m, r, true));
        assert.deepEqual(Array.from(erode(m, r).data), referenceMorph(m, r, false));
      }),
      { numRuns: 12 },
    );
  });

  it('finds the same components as a pixel flood fill, in the same order', () => {
    fc.assert(
      fc.property(masks, fc.constantFrom(1, 128, 200), fc.boolean(), (m, level, invert) => {
        const fast = components(m, { level, invert });
        const slow = referenceComponents(m, (v) => v >= level !== invert);
        const { count, areas, boxes, touchesBorder } = fast;
        assert.deepEqual(
          { count, areas, boxes, touchesBorder, labels: Array.from(fast.labels) },
          { ...slow, labels: Array.from(slow.labels) },
        );
      }),
      { numRuns: 300 },
    );
  });

  it('bounds the pixels at or above a level as a scan of every pixel does', () => {
    fc.assert(
      fc.property(masks, fc.constantFrom(0, 1, 128, 255), (m, level) => {
        let box: Box | null = null;
        for (let y = 0; y < m.height; y++)
          for (let x = 0; x < m.width; x++) {
            if (m.data[y * m.width + x]! < level) continue;
            box = box ?? { left: x, top: y, right: x + 1, bottom: y + 1 };
            box.left = Math.min(box.left, x);
            box.right = Math.max(box.right, x + 1);
            box.bottom = y + 1;
          }
        assert.deepEqual(boundingBox(m, level), box);
      }),
      { numRuns: 300 },
    );
  });

  it('paints chosen components run by run as a pixel-by-pixel paint over the labels does', () => {
    fc.assert(
      fc.property(masks, fc.boolean(), fc.uint8Array({ minLength: 64, maxLength: 64 }), (m, invert, pick) => {
        const cc = components(m, { invert });
        const which = Uint8Array.from({ length: cc.count + 1 }, (_, l) => (l > 0 ? pick[l % 64]! & 1 : 0));
        const slow = referenceComponents(m, (v) => v >= 1 !== invert);
        const expected = Uint8Array.from(m.data, (v, p) => (which[slow.labels[p]!] ? 77 : v));
        const painted = m.data.slice();
        paintComponents(cc, which, painted, m.width, 77);
        assert.deepEqual(Array.from(painted), Array.from(expected));
      }),
      { numRuns: 300 },
    );
  });

  it('joins a U shape whose arms meet only at the bottom, and keeps diagonal touches apart', () => {
    const rows = ['X.X.', 'X.X.', 'XXX.', '...X'];
    const m = {
      width: 4,
      height: 4,
      data: Uint8Array.from(
        rows
          .join('')
          .split('')
          .map((c) => (c === 'X' ? 255 : 0)),
      ),
    };
    const cc = components(m);
    assert.equal(cc.count, 2);
    assert.deepEqual(cc.areas, [0, 7, 1]);
    assert.deepEqual(cc.boxes[1], { left: 0, top: 0, right: 3, bottom: 3 });
    assert.deepEqual(Array.from(rowRuns(m)[2]!), [0, 3]);
  });

  it('finds the runs of each row as a pixel-by-pixel scan does, at any level, inverted or not', () => {
    // stretches of 0 and of 255 with other values between, on rows of whole words and not
    const stretchy = fc
      .record({ width: fc.integer({ min: 1, max: 40 }), height: fc.integer({ min: 1, max: 6 }) })
      .chain(({ width, height }) =>
        fc
          .array(
            fc.record({
              value: fc.constantFrom(0, 255, 0, 255, 1, 127, 128, 254),
              length: fc.integer({ min: 1, max: 13 }),
            }),
            {
              minLength: 1,
              maxLength: 30,
            },
          )
          .map((pieces) => {
            const data = new Uint8Array(width * height);
            let at = 0;
            for (let k = 0; at < data.length; k++) {
              const p = pieces[k % pieces.length]!;
              data.fill(p.value, at, Math.min(data.length, at + p.length));
              at += p.length;
            }
            return { width, height, data };
          }),
      );
    fc.assert(
      fc.property(stretchy, fc.integer({ min: 0, max: 256 }), fc.boolean(), (m, level, invert) => {
        const runs = rowRuns(m, { level, invert });
        for (let y = 0; y < m.height; y++) {
          const expected: number[] = [];
          for (let x = 0; x < m.width; x++) {
            const on = m.data[y * m.width + x]! >= level !== invert;
            const before = x > 0 && m.data[y * m.width + x - 1]! >= level !== invert;
            if (on && !before) expected.push(x);
            if (!on && before) expected.push(x);
          }
          if (expected.length % 2) expected.push(m.width);
          assert.deepEqual(Array.from(runs[y]!), expected, `row ${y}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('scores mirror symmetry from runs exactly as pixel by pixel', () => {
    fc.assert(
      fc.property(masks, fc.double({ min: -5, max: 30, noNaN: true }), (m, axis) => {
        assert.equal(mirrorScore(m, axis), referenceMirrorScore(m, axis));
      }),
      { numRuns: 300 },
    );
  });
});
