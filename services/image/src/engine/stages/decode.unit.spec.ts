import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import sharp, { type CreateRaw, type Sharp } from 'sharp';
import { EngineError } from '../errors.js';
import { heifDataEnd } from './heif-extents.js';
import { decodeImage, sniffFormat } from './decode.js';

const opts = { maxPixels: 40_000_000, workingLongSide: 4096 };

/** 60x40, left half red, right half blue. */
function halves(): Sharp {
  const w = 60,
    h = 40,
    data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const k = (y * w + x) * 3;
      if (x < w / 2) data[k] = 220;
      else data[k + 2] = 220;
    }
  return sharp(data, { raw: { width: w, height: h, channels: 3 } });
}

const px = (d: { image: { data: Buffer; width: number } }, x: number, y: number) => {
  const k = (y * d.image.width + x) * 3;
  return [d.image.data[k]!, d.image.data[k + 1]!, d.image.data[k + 2]!];
};

describe('decode', () => {
  it('reads JPEG, PNG, WebP, AVIF, GIF and TIFF to 8-bit sRGB', async () => {
    for (const f of ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'] as const) {
      const buf = await halves().toFormat(f).toBuffer();
      assert.equal(sniffFormat(buf), f === 'avif' ? 'avif' : f);
      const d = await decodeImage(buf, opts);
      assert.equal(d.image.width, 60, f);
      assert.equal(d.image.height, 40, f);
      assert.equal(d.image.channels, 3);
      assert.ok(px(d, 5, 5)[0]! > 150 && px(d, 55, 5)[2]! > 150, `${f} colours ${px(d, 5, 5)} ${px(d, 55, 5)}`);
    }
  });

  it('applies every EXIF orientation', async () => {
    for (let o = 1; o <= 8; o++) {
      const buf = await halves().jpeg().withMetadata({ orientation: o }).toBuffer();
      const d = await decodeImage(buf, opts);
      const swapped = o >= 5;
      assert.deepEqual([d.image.width, d.image.height], swapped ? [40, 60] : [60, 40], `orientation ${o}`);
      if (o === 6) {
        // 90° clockwise: the red left half ends on top
        assert.ok(px(d, 20, 5)[0]! > 150 && px(d, 20, 55)[2]! > 150);
      }
    }
  });

  it('converts CMYK and 16-bit inputs', async () => {
    const cmyk = await halves().toColourspace('cmyk').jpeg().toBuffer();
    assert.equal((await sharp(cmyk).metadata()).space, 'cmyk');
    const a = await decodeImage(cmyk, opts);
    assert.ok(px(a, 5, 5)[0]! > 150 && px(a, 5, 5)[2]! < 100, `cmyk red ${px(a, 5, 5)}`);
    const deep = await halves().toColourspace('rgb16').png().toBuffer();
    assert.equal((await sharp(deep).metadata()).depth, 'ushort');
    const b = await decodeImage(deep, opts);
    assert.equal(b.image.data.length, 60 * 40 * 3);
    assert.ok(px(b, 55, 5)[2]! > 150);
  });

  it('reads HEIC (HEVC) through the WebAssembly fallback', async () => {
    // 64x48, left half red, right half blue; made with pillow-heif (libheif + x265), 534 bytes
    const heic = Buffer.from(HEIC_HALVES, 'base64');
    assert.equal(sniffFormat(heic), 'heif');
    const d = await decodeImage(heic, opts);
    assert.deepEqual([d.image.width, d.image.height, d.format], [64, 48, 'heif']);
    assert.ok(px(d, 5, 5)[0]! > 150 && px(d, 60, 5)[2]! > 150, `${px(d, 5, 5)} ${px(d, 60, 5)}`);
  });

  it('refuses a HEIC cut short (an interrupted upload) before decoding, and a damaged one quietly', async () => {
    const heic = Buffer.from(HEIC_HALVES, 'base64');
    assert.equal(heifDataEnd(heic), heic.length, 'the image data ends where the file does');
    const cut = heic.subarray(0, heic.length - 40);
    await assert.rejects(
      decodeImage(cut, opts),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'CORRUPT_IMAGE' &&
        /incomplete: its image data runs to byte 534, but the file has 494 bytes/.test(e.message),
    );
    // libheif reports a parse failure with console.log: it must end in the error, not on stdout
    const damaged = Buffer.concat([heic.subarray(0, 40), Buffer.alloc(200, 7)]);
    const logged: unknown[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void logged.push(args);
    try {
      await assert.rejects(
        decodeImage(damaged, opts),
        (e: unknown) => e instanceof EngineError && e.code === 'CORRUPT_IMAGE',
      );
    } finally {
      console.log = log;
    }
    assert.deepEqual(logged, []);
  });

  it('converts an ICC-tagged (Display P3) image to sRGB', async () => {
    const raw = Buffer.alloc(16 * 16 * 3);
    for (let i = 0; i < raw.length; i += 3) {
      raw[i] = 200;
      raw[i + 1] = 100;
      raw[i + 2] = 50;
    }
    const p3 = await sharp(raw, { raw: { width: 16, height: 16, channels: 3 } })
      .withIccProfile('p3')
      .png()
      .toBuffer();
    const stored = await sharp(p3, { ignoreIcc: true }).raw().toBuffer();
    assert.ok(Math.abs(stored[0]! - 200) > 5, 'stored pixels are in P3, not sRGB');
    const d = await decodeImage(p3, opts);
    const [r, g, b] = px(d, 8, 8);
    assert.ok(Math.abs(r! - 200) <= 2 && Math.abs(g! - 100) <= 2 && Math.abs(b! - 50) <= 2, `${r},${g},${b}`);
  });

  it('takes the first frame of an animated GIF', async () => {
    const frame = (r: number) => Buffer.alloc(8 * 8 * 3, 0).map((_, i) => (i % 3 === 0 ? r : 0));
    const anim = await sharp(Buffer.concat([frame(250), frame(10)]), {
      raw: { width: 8, height: 16, channels: 3, pageHeight: 8 } as CreateRaw & { pageHeight: number },
    })
      .gif()
      .toBuffer();
    const d = await decodeImage(anim, opts);
    assert.equal(d.image.height, 8);
    assert.ok(px(d, 4, 4)[0]! > 200);
  });

  it('shrinks to the working size and refuses images over the pixel limit', async () => {
    const big = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const d = await decodeImage(big, { maxPixels: 40_000_000, workingLongSide: 1000 });
    assert.deepEqual([d.image.width, d.image.height, d.originalWidth], [1000, 667, 3000]);
    await assert.rejects(
      decodeImage(big, { maxPixels: 5_000_000, workingLongSide: 1000 }),
      (e: unknown) => e instanceof EngineError && e.code === 'TOO_MANY_PIXELS',
    );
  });
});

const HEIC_HALVES =
  'AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAX1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAACJpbG9jAAAAAERAAAEAAQAAAAABoQABAAAAAAAAAHUAAAAjaWluZgAAAAAAAQAAABVpbmZlAgAAAAABAABodmMxAAAAAA5waXRtAAAAAAABAAAA/WlwcnAAAADdaXBjbwAAAHZodmNDAQNwAAAAkAAAAAAAHvAA/P34+AAADwNgAAEAGEABDAH//wNwAAADAJAAAAMAAAMAHroCQGEAAQAqQgEBA3AAAAMAkAAAAwAAAwAeoCCBBZbq5Ka5uAhoMCAAAAMDIAAAAwAhYgABAAZEAcFzwIkAAAATY29scm5jbHgAAQANAAaAAAAAFGlzcGUAAAAAAAAAQAAAAEAAAAAoY2xhcAAAAEAAAAABAAAAMAAAAAEAAAAAAAAAAv////AAAAACAAAAEHBpeGkAAAAAAwgICAAAABhpcG1hAAAAAAAAAAEAAQWBAgMFhAAAAH1tZGF0AAAAcSgBrwT4cWTTt/+Bd///9lGOy/uiFvfIP38aUv9n8v//0Ki/aSrlkb2WtfnKUg80sPsfgJ7N/AuYVIXqBJ6fU8nRKZ9eKsRSjeEOeX1cdMSNPfWel8e8jAXn8lKvezMXMVcOh2CmmEH8lVrTbe/ziTvw';
