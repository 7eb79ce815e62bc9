import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { createEngine, EngineError, type EngineErrorCode } from '../src/engine/index.js';
import { ThresholdModel } from '../src/engine/testing/fixtures.js';

/** Malformed and hostile inputs: each must end in a typed EngineError, never a crash or a hang. */

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

function pngWithHeader(width: number, height: number, idat: Buffer = deflateSync(Buffer.alloc(1024))): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Patch a baseline JPEG's frame header (SOF0) to claim other dimensions. */
function jpegClaiming(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9; i++) {
    if (out[i] === 0xff && (out[i + 1] === 0xc0 || out[i + 1] === 0xc2)) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
  }
  throw new Error('no SOF marker');
}

function randomBytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    b[i] = s >> 16;
  }
  return b;
}

async function hostileFiles(): Promise<[string, Buffer, EngineErrorCode[]][]> {
  const photo = sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } });
  const jpeg = await photo.clone().jpeg().toBuffer();
  const png = await photo.clone().png().toBuffer();
  const webp = await photo.clone().webp().toBuffer();
  const gif = await photo.clone().gif().toBuffer();
  const tiff = await photo.clone().tiff().toBuffer();
  const avif = await photo.clone().avif().toBuffer();
  const half = (b: Buffer) => b.subarray(0, Math.floor(b.length / 2));
  const corrupt: EngineErrorCode[] = ['CORRUPT_IMAGE'];
  const unsupported: EngineErrorCode[] = ['UNSUPPORTED_FORMAT'];
  const ftyp = (brand: string) =>
    Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from(`ftyp${brand}\0\0\0\0mif1${brand}`, 'latin1'),
      randomBytes(500, 7),
    ]);
  return [
    ['empty file', Buffer.alloc(0), ['EMPTY_INPUT']],
    ['plain text', Buffer.from('hello, this is not a photo\n'), unsupported],
    [
      'SVG',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      ),
      unsupported,
    ],
    ['SVG with XML prolog', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), unsupported],
    ['PDF', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF'), unsupported],
    ['BMP', Buffer.concat([Buffer.from('BM'), randomBytes(200, 1)]), unsupported],
    ['HTML', Buffer.from('<!doctype html><html><body><img src=x></body></html>'), unsupported],
    ['ZIP archive', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(300, 2)]), unsupported],
    ['random bytes', randomBytes(10_000, 3), unsupported],
    ['a megabyte of zeros', Buffer.alloc(1 << 20), unsupported],
    ['JPEG magic only', Buffer.from([0xff, 0xd8, 0xff]), corrupt],
    ['JPEG marker then garbage', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2000, 4)]), corrupt],
    ['truncated JPEG', half(jpeg), corrupt],
    ['PNG signature then garbage', Buffer.concat([png.subarray(0, 8), randomBytes(300, 5)]), corrupt],
    ['truncated PNG', half(png), corrupt],
    ['PNG with zero width', pngWithHeader(0, 100), corrupt],
    ['PNG with a broken data stream', pngWithHeader(64, 64, randomBytes(400, 6)), corrupt],
    ['PNG decompression bomb (50000 x 50000)', pngWithHeader(50_000, 50_000), ['TOO_MANY_PIXELS']],
    ['JPEG claiming 60000 x 60000', jpegClaiming(jpeg, 60_000, 60_000), ['TOO_MANY_PIXELS']],
    ['GIF header then garbage', Buffer.concat([gif.subarray(0, 13), randomBytes(400, 10)]), corrupt],
    ['truncated WebP', half(webp), corrupt],
    ['WebP header then garbage', Buffer.concat([webp.subarray(0, 12), randomBytes(300, 8)]), corrupt],
    ['truncated GIF', gif.subarray(0, 20), corrupt],
    ['truncated TIFF', tiff.subarray(0, 16), corrupt],
    ['TIFF header then garbage', Buffer.concat([Buffer.from('II*\0', 'latin1'), randomBytes(300, 9)]), corrupt],
    ['truncated AVIF', half(avif), corrupt],
    ['AVIF brand with garbage', ftyp('avif'), corrupt],
    ['HEIC brand with garbage', ftyp('heic'), corrupt],
    [
      'JPEG magic wrapping a PDF',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('%PDF-1.4 junk')]),
      corrupt,
    ],
    [
      '1 x 1 PNG with nothing on it',
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
      ['NO_PRODUCT_FOUND'],
    ],
  ];
}

describe('robustness: hostile inputs end in typed errors', async () => {
  const engine = await createEngine({ model: new ThresholdModel(), maxPixels: 40_000_000 });
  const files = await hostileFiles();
  it('has at least 25 cases', () => assert.ok(files.length >= 25));
  for (const [name, buf, codes] of files) {
    it(name, { timeout: 30_000 }, async () => {
      await assert.rejects(engine.enhance(buf, {}), (err: unknown) => {
        assert.ok(err instanceof EngineError, `${name}: not an EngineError: ${String(err)}`);
        assert.ok(codes.includes(err.code), `${name}: got ${err.code} (${err.message}), expected ${codes.join('|')}`);
        return true;
      });
    });
  }
});
