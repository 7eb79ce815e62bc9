import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text the gateway serves from the build; images and video are compressed already. */
const TEXT = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/**
 * Above this, brotli's top quality costs seconds of the build per file for a few per cent (the
 * 2 MB HEIC converter, loaded only for a HEIC photo: 7.8 s at 11, 1.0 s at 9, 501 vs 568 KB).
 */
const LARGE_BYTES = 512 * 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli at its highest quality) and `<file>.gz` beside each text file of the
 * build, so the gateway sends them as they are (express-static-gzip) instead of compressing the
 * same bytes again on every request at a lower quality (ADR 0713).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'flatlay-precompress',
    apply: 'build',
    configResolved(config) {
      // resolve, not join: a build may name an absolute outDir (the operator journey's own build).
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(options, bundle) {
      // zlib's async calls run on libuv's thread pool: the files are compressed side by side.
      const texts = Object.keys(bundle).filter((fileName) => TEXT.test(fileName));
      await Promise.all(
        texts.map(async (fileName) => {
          const path = join(options.dir ?? outDir, fileName);
          const bytes = await readFile(path);
          if (bytes.length < MIN_BYTES) return;
          const params = {
            [constants.BROTLI_PARAM_QUALITY]: bytes.length > LARGE_BYTES ? 9 : constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          };
          const [br, gz] = await Promise.all([brotli(bytes, { params }), gzipped(bytes, { level: 9 })]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}
