import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { Layer } from './cut-out.js';
import { blendOnto, composeCanvas, finishLayer, visibleSpans } from './canvas.js';
import { applyGains } from './white-balance.js';

function layer(
  width: number,
  height: number,
  rgb: [number, number, number],
  alphaAt: (x: number, y: number) => number,
): Layer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const k = (y * width + x) * 4;
      data[k] = rgb[0];
      data[k + 1] = rgb[1];
      data[k + 2] = rgb[2];
      data[k + 3] = alphaAt(x, y);
    }
  return { image: { data, width, height, channels: 4 }, left: 5, top: 7 };
}

const alphaOf = (l: Layer) => Buffer.from(l.image.data.filter((_, i) => i % 4 === 3));

describe('canvas', () => {
  it('applies the white-balance gains to the colour and leaves the alpha exactly as cut', async () => {
    const l = layer(40, 30, [200, 150, 100], (x, y) => (x * 7 + y * 3) % 256);
    const out = finishLayer(l, [1.1, 1, 0.9], 0);
    assert.deepEqual(alphaOf(out), alphaOf(l));
    const [r, g, b] = out.image.data.subarray(0, 3);
    assert.ok(Math.abs(r! - 220) <= 1 && Math.abs(g! - 150) <= 1 && Math.abs(b! - 90) <= 1, `got ${r},${g},${b}`);
    assert.equal(out.left, 5);
    assert.equal(out.top, 7);
  });

  it('sharpens an edge (more contrast across it) without touching the alpha', async () => {
    const data = Buffer.alloc(32 * 32 * 4);
    for (let p = 0; p < 32 * 32; p++) {
      const v = p % 32 < 16 ? 90 : 160;
      data.fill(v, p * 4, p * 4 + 3);
      data[p * 4 + 3] = 255;
    }
    const l: Layer = { image: { data, width: 32, height: 32, channels: 4 }, left: 0, top: 0 };
    const out = finishLayer(l, [1, 1, 1], 1);
    const at = (x: number) => out.image.data[(16 * 32 + x) * 4]!;
    assert.ok(at(16) - at(15) > 70, `edge contrast ${at(15)} -> ${at(16)}`);
    assert.ok(at(16) - at(15) <= 70 + 2 * 24, 'each side moves at most the sharpening limit');
    const k = (16 * 32 + 15) * 4;
    assert.deepEqual(
      [out.image.data[k + 1], out.image.data[k + 2]],
      [out.image.data[k], out.image.data[k]],
      'grey stays grey',
    );
    assert.equal(at(2), 90, 'flat areas are left alone');
    assert.deepEqual(alphaOf(out), alphaOf(l));
    const soft = layer(32, 32, [120, 60, 200], (x, y) => (x * 37 + y * 11) % 256); // every alpha value
    assert.deepEqual(alphaOf(finishLayer(soft, [1.05, 1, 0.95], 1)), alphaOf(soft));
  });

  it('keeps the background exactly the studio colour wherever the product is transparent', async () => {
    const l = layer(20, 20, [10, 20, 30], (x) => (x < 10 ? 0 : 255));
    const canvas = await composeCanvas([l], 50, 40, {
      background: 'grey',
      shadow: false,
      transparent: false,
      gains: [1, 1, 1],
      sharpen: 0,
    });
    const px = (x: number, y: number) => Array.from(canvas.data.subarray((y * 50 + x) * 3, (y * 50 + x) * 3 + 3));
    assert.deepEqual(px(0, 0), [236, 236, 234]);
    assert.deepEqual(px(5 + 3, 7 + 3), [236, 236, 234], 'transparent part of the layer');
    assert.deepEqual(px(5 + 15, 7 + 3), [10, 20, 30], 'opaque part of the layer');
    assert.deepEqual(px(49, 39), [236, 236, 234]);
  });

  it('sharpens every visible pixel exactly as the plain clamped-window version does', () => {
    const layers = fc
      .record({
        width: fc.integer({ min: 1, max: 12 }),
        height: fc.integer({ min: 1, max: 12 }),
        channels: fc.constantFrom(3 as const, 4 as const),
        // mostly transparent layers too: the blur is skipped where no visible pixel reads it
        sparse: fc.boolean(),
      })
      .chain(({ width, height, channels, sparse }) =>
        fc.uint8Array({ minLength: width * height * channels, maxLength: width * height * channels }).map((d) => {
          if (sparse && channels === 4) for (let k = 3; k < d.length; k += 4) if (d[k]! < 200) d[k] = 0;
          return { data: Buffer.from(d), width, height, channels };
        }),
      );
    fc.assert(
      fc.property(layers, fc.constantFrom(0.6, 0.8, 1, 1.2, 2.2), (image, sharpen) => {
        const gains: [number, number, number] = [1.05, 1, 0.95];
        const fast = finishLayer({ image, left: 0, top: 0 }, gains, sharpen).image.data;
        const slow = referenceSharpen(
          applyGains(image, gains).data,
          image.width,
          image.height,
          image.channels,
          sharpen,
        );
        for (let k = 0; k < slow.length; k += image.channels) {
          if (image.channels === 4 && image.data[k + 3] === 0) continue; // transparent: never seen
          assert.deepEqual(
            Array.from(fast.subarray(k, k + image.channels)),
            Array.from(slow.subarray(k, k + image.channels)),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('blendOnto', () => {
  it('blends every pixel as the per-pixel formula does, layers off any edge of the canvas included', () => {
    const cases = fc
      .record({
        cw: fc.integer({ min: 1, max: 12 }),
        ch: fc.integer({ min: 1, max: 12 }),
        lw: fc.integer({ min: 1, max: 12 }),
        lh: fc.integer({ min: 1, max: 12 }),
        left: fc.integer({ min: -14, max: 14 }),
        top: fc.integer({ min: -14, max: 14 }),
        channels: fc.constantFrom(3 as const, 4 as const),
      })
      .chain((c) =>
        fc.record({
          c: fc.constant(c),
          // alpha 0, 255 and in between, as a cut-out's edge has them
          pixels: fc.uint8Array({ minLength: c.lw * c.lh * c.channels, maxLength: c.lw * c.lh * c.channels }),
          background: fc.uint8Array({ minLength: c.cw * c.ch * 3, maxLength: c.cw * c.ch * 3 }),
        }),
      );
    fc.assert(
      fc.property(cases, ({ c, pixels, background }) => {
        const data = Buffer.from(pixels);
        if (c.channels === 4)
          for (let k = 3; k < data.length; k += 4) data[k] = data[k]! < 80 ? 0 : data[k]! > 170 ? 255 : data[k]!;
        const l: Layer = { image: { data, width: c.lw, height: c.lh, channels: c.channels }, left: c.left, top: c.top };
        const canvas = Buffer.from(background);
        blendOnto(canvas, c.cw, c.ch, l);
        const expected = Buffer.from(background);
        for (let y = 0; y < c.lh; y++)
          for (let x = 0; x < c.lw; x++) {
            const cx = x + c.left,
              cy = y + c.top;
            if (cx < 0 || cy < 0 || cx >= c.cw || cy >= c.ch) continue;
            const k = (y * c.lw + x) * c.channels,
              o = (cy * c.cw + cx) * 3;
            const a = c.channels === 4 ? data[k + 3]! : 255;
            for (let i = 0; i < 3; i++)
              expected[o + i] = Math.floor((data[k + i]! * a + background[o + i]! * (255 - a) + 127) / 255);
          }
        assert.deepEqual([...canvas], [...expected]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('visibleSpans', () => {
  it("covers, per row, the visible pixels' columns within the reach above and below, as brute force does", () => {
    const layers = fc
      .record({ width: fc.integer({ min: 1, max: 14 }), height: fc.integer({ min: 1, max: 14 }) })
      .chain(({ width, height }) =>
        fc
          .uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 })
          .map((d) => ({ data: d.map((v, k) => (k % 4 === 3 && v < 220 ? 0 : v)), width, height })),
      );
    fc.assert(
      fc.property(layers, fc.integer({ min: 0, max: 4 }), ({ data, width, height }, reach) => {
        const spans = visibleSpans(data, width, height, reach);
        for (let y = 0; y < height; y++) {
          let from = width,
            to = 0;
          for (let v = Math.max(0, y - reach); v <= Math.min(height - 1, y + reach); v++)
            for (let x = 0; x < width; x++)
              if (data[(v * width + x) * 4 + 3] !== 0) {
                from = Math.min(from, x);
                to = Math.max(to, x + 1);
              }
          assert.deepEqual([spans[2 * y], spans[2 * y + 1]], to > from ? [from, to] : [0, 0]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** The unsharp mask with every window clamped pixel by pixel: slow and plainly right. */
function referenceSharpen(data: Buffer, width: number, height: number, channels: number, sharpen: number): Uint8Array {
  const out = Buffer.from(data);
  const sigma = 0.5 + 0.5 * sharpen,
    radius = Math.max(1, Math.ceil(2 * sigma));
  const taps = new Float32Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) sum += taps[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < taps.length; i++) taps[i]! /= sum;
  const n = width * height;
  const luma = new Float32Array(n);
  for (let p = 0; p < n; p++)
    luma[p] = 0.299 * out[p * channels]! + 0.587 * out[p * channels + 1]! + 0.114 * out[p * channels + 2]!;
  const at = (x: number, y: number) =>
    Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x));
  const across = new Float32Array(n);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let i = -radius; i <= radius; i++) acc += taps[i + radius]! * luma[at(x + i, y)]!;
      across[y * width + x] = acc;
    }
  const px = new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let blurred = 0;
      for (let i = -radius; i <= radius; i++) blurred += taps[i + radius]! * across[at(x, y + i)]!;
      const p = y * width + x;
      const step = Math.max(-24, Math.min(24, (0.35 + 0.4 * sharpen) * (luma[p]! - blurred)));
      for (let c = 0; c < 3; c++) px[p * channels + c] = px[p * channels + c]! + step;
    }
  return out;
}
