import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { maskFrom } from '../../src/engine/testing/fixtures.js';
import { fillOutlines, type Layer, lowerLeftGrip, maskBox, PROPS, paintOver, topMiddle } from './props.js';

const count = (mask: Uint8Array) => mask.reduce((n, v) => n + (v ? 1 : 0), 0);

describe('fillOutlines: an outline traced by hand, filled', () => {
  it('fills the pixels whose centres are inside', () => {
    const mask = fillOutlines(
      [
        [
          [2, 2],
          [6, 2],
          [6, 6],
          [2, 6],
        ],
      ],
      10,
      10,
    );
    assert.equal(count(mask), 16);
    assert.deepEqual(maskBox(mask, 10, 10), { left: 2, top: 2, right: 5, bottom: 5 });
  });

  it('leaves a hole where a second outline lies inside the first (even-odd)', () => {
    const outer: [number, number][] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ];
    const inner: [number, number][] = [
      [3, 3],
      [7, 3],
      [7, 7],
      [3, 7],
    ];
    const mask = fillOutlines([outer, inner], 10, 10);
    assert.equal(count(mask), 100 - 16);
    assert.equal(mask[5 * 10 + 5], 0);
  });

  it('fills a slanted side by the pixel centres (a triangle keeps about half its box)', () => {
    const mask = fillOutlines(
      [
        [
          [0, 0],
          [20, 20],
          [0, 20],
        ],
      ],
      20,
      20,
    );
    // row y's centre line crosses the side at x = y + 0.5: pixels 0..y are inside (a centre on
    // the side counts as inside), so the rows hold 1, 2, ..., 20
    assert.equal(count(mask), (20 * 21) / 2);
  });

  it('clips an outline that runs past the image', () => {
    const mask = fillOutlines(
      [
        [
          [-5, -5],
          [5, -5],
          [5, 5],
          [-5, 5],
        ],
      ],
      10,
      10,
    );
    assert.equal(count(mask), 25);
  });
});

function layer(width: number, height: number, rgba: [number, number, number, number]): Layer {
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) data.set(rgba, p * 4);
  return { data, width, height };
}

describe('paintOver', () => {
  it('an opaque layer replaces what it covers, and nothing else', () => {
    const dst = layer(4, 4, [0, 0, 255, 255]);
    paintOver(dst, layer(2, 2, [255, 0, 0, 255]), 1, 1);
    assert.deepEqual([...dst.data.subarray((1 * 4 + 1) * 4, (1 * 4 + 1) * 4 + 4)], [255, 0, 0, 255]);
    assert.deepEqual([...dst.data.subarray(0, 4)], [0, 0, 255, 255]);
    assert.deepEqual([...dst.data.subarray((3 * 4 + 3) * 4, (3 * 4 + 3) * 4 + 4)], [0, 0, 255, 255]);
  });

  it('a half-transparent layer blends over an opaque one', () => {
    const dst = layer(1, 1, [0, 0, 200, 255]);
    paintOver(dst, layer(1, 1, [200, 0, 0, 128]), 0, 0);
    const [r, g, b, a] = dst.data;
    assert.equal(a, 255);
    assert.ok(Math.abs(r! - 100) <= 1 && g === 0 && Math.abs(b! - 100) <= 1, `${[r, g, b]}`);
  });

  it('over a transparent canvas keeps the layer as it is', () => {
    const dst = layer(2, 2, [0, 0, 0, 0]);
    paintOver(dst, layer(2, 2, [10, 20, 30, 100]), 0, 0);
    assert.deepEqual([...dst.data.subarray(0, 4)], [10, 20, 30, 100]);
  });

  it('a layer partly outside is cut at the edges', () => {
    const dst = layer(4, 4, [0, 0, 0, 255]);
    paintOver(dst, layer(4, 4, [255, 255, 255, 255]), -2, 2);
    const white = [...Array(16).keys()].filter((p) => dst.data[p * 4] === 255);
    assert.deepEqual(white, [8, 9, 12, 13]); // rows 2-3, columns 0-1
  });
});

describe('where a prop meets the product', () => {
  // a top: a body 20-79 wide from row 30 down to row 89, its collar row 30 narrower (35-64), and
  // a left sleeve hanging lower than the body (columns 20-27 down to row 95)
  const W = 100;
  const top = maskFrom(W, 100, (x, y) =>
    y === 30 ? x >= 35 && x < 65 : y > 30 && x >= 20 && x < 80 && (y < 90 || (x < 28 && y < 96)),
  );
  const box = maskBox(top.data, W, 100)!;

  it('a hanger or a hook meets the middle of the top row', () => {
    assert.deepEqual(topMiddle(box, top.data, W), [50, 30]);
  });

  it('a hand grips the lower left where the product reaches lowest, a tenth of its height up', () => {
    const [x, y] = lowerLeftGrip(box, top.data, W);
    assert.ok(x >= 20 && x < 28, `the sleeve's column, not ${x}`);
    assert.equal(y, Math.round(95 - 0.1 * 66));
  });

  it("each prop's traced outline covers part of its photo, and its anchor lies in the outline's box", () => {
    const sizes: Record<string, [number, number]> = {
      'top_hanger_01.jpg': [400, 533],
      'bottom_hanger_01.jpg': [400, 400],
      'headwear_inhand_01.jpg': [400, 533],
    };
    for (const prop of Object.values(PROPS)) {
      const [w, h] = sizes[prop.photo]!;
      const mask = fillOutlines(prop.outlines, w, h);
      const b = maskBox(mask, w, h)!;
      assert.ok(count(mask) > 500 && count(mask) < (w * h) / 2, `${prop.name}: ${count(mask)} pixels`);
      const [ax, ay] = prop.anchor;
      assert.ok(ax >= b.left && ax <= b.right && ay >= b.top && ay <= b.bottom, `${prop.name}: anchor ${prop.anchor}`);
    }
  });
});
