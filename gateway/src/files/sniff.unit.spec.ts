import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { downloadName, sniffImageType } from './sniff.js';

const ftyp = (major: string, ...compatible: string[]) => {
  const brands = [major, '\0\0\0\0', ...compatible].join('');
  const box = Buffer.alloc(8 + brands.length);
  box.writeUInt32BE(box.length, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(brands, 8, 'latin1');
  return Buffer.concat([box, Buffer.alloc(16)]);
};

describe('sniffImageType', () => {
  it('knows JPEG, PNG, WebP, HEIC, HEIF and AVIF by their leading bytes', () => {
    assert.equal(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])), 'image/jpeg');
    assert.equal(sniffImageType(Buffer.from('89504e470d0a1a0a0000000d', 'hex')), 'image/png');
    assert.equal(sniffImageType(Buffer.from('RIFF\x10\0\0\0WEBPVP8 ', 'latin1')), 'image/webp');
    assert.equal(sniffImageType(ftyp('heic', 'mif1', 'heic')), 'image/heic');
    assert.equal(sniffImageType(ftyp('mif1', 'heic')), 'image/heic');
    assert.equal(sniffImageType(ftyp('mif1', 'miaf')), 'image/heif');
    assert.equal(sniffImageType(ftyp('avif', 'mif1', 'miaf')), 'image/avif');
    assert.equal(sniffImageType(ftyp('mif1', 'avif')), 'image/avif');
  });

  it('knows nothing else: text, GIF, MP4, empty', () => {
    assert.equal(sniffImageType(Buffer.from('hello, this is not an image')), undefined);
    assert.equal(sniffImageType(Buffer.from('GIF89a\x01\0\x01\0', 'latin1')), undefined);
    assert.equal(sniffImageType(ftyp('isom', 'mp41')), undefined);
    assert.equal(sniffImageType(Buffer.alloc(0)), undefined);
  });

  it('names downloads enhanced.<ext>', () => {
    assert.equal(downloadName('image/jpeg'), 'enhanced.jpg');
    assert.equal(downloadName('image/png'), 'enhanced.png');
    assert.equal(downloadName('image/avif'), 'enhanced.avif');
    assert.equal(downloadName('application/octet-stream'), 'enhanced.jpg');
  });
});
