import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import sharp from 'sharp';
import { repoRoot } from '../src/engine/model/isnet-assets.js';

/** `npm run enhance` as a seller's script would use it (real model, one run, several inputs). */
const root = repoRoot();
const cli = path.join(root, 'services/image/tools/enhance.ts');
const photo = path.join(root, 'services/image/test/fixtures/headwear_01.jpg');

function run(args: string[]) {
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', cli, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('enhance CLI', () => {
  it('writes one file and one JSON line per input, and an error line for a refused one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'flatlay-cli-'));
    try {
      const bad = path.join(dir, 'notes.jpg');
      writeFileSync(bad, 'not an image at all');
      const out = path.join(dir, 'out');
      const r = run([
        '--type',
        'accessory_headwear',
        '--size',
        '600',
        '--format',
        'webp',
        '--preset',
        'ebay',
        bad,
        photo,
        '--out',
        out,
      ]);
      assert.equal(r.status, 1, r.stderr);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(lines.length, 2);
      assert.equal(lines[0].input, bad);
      assert.equal(lines[0].error.code, 'UNSUPPORTED_FORMAT');
      const ok = lines[1];
      assert.deepEqual(Object.keys(ok), ['input', 'output', 'width', 'height', 'ms', 'checks']);
      assert.equal(ok.output, path.join(out, 'headwear_01.webp'));
      assert.ok(existsSync(ok.output));
      assert.deepEqual([ok.width, ok.height], [600, 600]);
      assert.equal((await sharp(ok.output).metadata()).format, 'webp');
      assert.ok(ok.ms > 0);
      const size = ok.checks.find((c: { rule: string }) => c.rule.startsWith('long side'));
      assert.equal(size.pass, false, 'ebay wants 1600 px; 600 px must fail and say so');
      assert.match(size.detail, /600 px/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad options before loading the model', () => {
    const r = run(['--background', 'purple', photo, '--out', tmpdir()]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /background must be white or grey/);
  });
});
