import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { isHeicByName, isHeicBytes, isHeicFile, jpegNameFor } from './heic';

const bytes = (s: string) => new Uint8Array([...s].map((c) => c.charCodeAt(0)));

describe('HEIC detection', () => {
  it('knows HEIC by MIME type and by extension', () => {
    assert.equal(isHeicByName('a.jpg', 'image/heic'), true);
    assert.equal(isHeicByName('a.jpg', 'image/HEIF'), true);
    assert.equal(isHeicByName('IMG_1.HEIC', ''), true);
    assert.equal(isHeicByName('photo.heif', 'application/octet-stream'), true);
    assert.equal(isHeicByName('photo.jpg', 'image/jpeg'), false);
  });
  it('knows HEIC by an ftyp box with a HEIC brand at bytes 4-11', () => {
    for (const brand of ['heic', 'heif', 'heix', 'hevc', 'hevx'])
      assert.equal(isHeicBytes(bytes(`\0\0\0\x18ftyp${brand}`)), true, brand);
    assert.equal(isHeicBytes(bytes('\0\0\0\x18ftypisom')), false);
  });
  it('knows HEIC by ftyp, moov or mdat at the start', () => {
    for (const start of ['ftyp', 'moov', 'mdat']) assert.equal(isHeicBytes(bytes(`${start}xxxxxxxx`)), true);
    assert.equal(isHeicBytes(bytes('\xff\xd8\xff\xe0JFIF')), false);
    assert.equal(isHeicBytes(bytes('ab')), false);
  });
  it('reads the leading bytes of a file with no telling name or type', async () => {
    const heic = new File([bytes('\0\0\0\x18ftypheic\0\0\0\0')], 'upload', { type: '' });
    const png = new File([bytes('\x89PNG\r\n\x1a\n\0\0\0\0')], 'upload', { type: '' });
    assert.equal(await isHeicFile(heic), true);
    assert.equal(await isHeicFile(png), false);
  });
  it('keeps the base name with the extension .jpg', () => {
    assert.equal(jpegNameFor('IMG_0042.HEIC'), 'IMG_0042.jpg');
    assert.equal(jpegNameFor('my.photo.heif'), 'my.photo.jpg');
    assert.equal(jpegNameFor('noext'), 'noext.jpg');
  });
});
