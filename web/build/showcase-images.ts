import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import sharp from 'sharp';
import type { Plugin } from 'vite';
import { SHOWCASE_FORMATS, SHOWCASE_WIDTHS, type ShowcaseFormat } from '../src/features/content/showcase-images';

/**
 * Encoder settings. AVIF at quality 50 looks like the WebP masters (q70–75) at about two thirds of
 * their bytes; effort 4 keeps a cold build of all forty files to seconds. Part of the cache key.
 */
const ENCODE = { avif: { quality: 50, effort: 4 }, webp: { quality: 75, effort: 6 } } as const;

/**
 * Where made images are kept between builds, by the hash of their master and settings: the
 * machine's cache outside the clone (`FLATLAY_CACHE`, as the test infrastructure's), so a fresh clone (CI, a new
 * folder) does not encode all forty again.
 */
const DEFAULT_CACHE = join(
  process.env.FLATLAY_CACHE ? resolve(process.env.FLATLAY_CACHE) : join(homedir(), '.cache', 'flatlay'),
  'showcase-images',
);

/**
 * One image of a master: `format` at `width` (never wider than the master). A WebP at the master's
 * own width is the master itself (encoding it again would only lose detail). Made once: later
 * calls read it from `cacheDir`, keyed by the master's bytes and the settings.
 */
export async function showcaseImage(
  master: Buffer,
  width: number,
  format: ShowcaseFormat,
  cacheDir: string,
): Promise<{ bytes: Buffer; cached: boolean }> {
  const key = createHash('sha256')
    .update(master)
    .update(JSON.stringify({ width, format, encode: ENCODE[format], sharp: sharp.versions.sharp }))
    .digest('hex')
    .slice(0, 32);
  const file = join(cacheDir, `${key}.${format}`);
  const hit = await readFile(file).catch(() => null);
  if (hit) return { bytes: hit, cached: true };
  const { width: masterWidth = 0, format: masterFormat } = await sharp(master).metadata();
  const bytes =
    format === 'webp' && masterFormat === 'webp' && width >= masterWidth
      ? master
      : await sharp(master)
          .resize(width, width, { fit: 'inside', withoutEnlargement: true })
          [format](ENCODE[format])
          .toBuffer();
  await mkdir(cacheDir, { recursive: true });
  // Through a temporary name: a build stopped halfway never leaves a cut file under a good key.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return { bytes, cached: false };
}

/**
 * Makes the showcase's images at build from the masters in `sourceDir` (web/showcase/, written by
 * scripts/showcase.mjs): `showcase/<name>-<width>.<format>` in the build for every width and format
 * of ../src/features/content/showcase-images.ts. The dev server makes them on request, the same way.
 */
export function showcaseImages({ sourceDir = 'showcase', cacheDir = DEFAULT_CACHE } = {}): Plugin {
  let root = process.cwd();
  const masters = async () =>
    (await readdir(resolve(root, sourceDir))).filter((f) => extname(f) === '.webp').map((f) => basename(f, '.webp'));
  const read = (name: string) => readFile(resolve(root, sourceDir, `${name}.webp`));
  return {
    name: 'flatlay-showcase-images',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle() {
      let made = 0;
      const jobs = (await masters()).flatMap((name) =>
        SHOWCASE_WIDTHS.flatMap((width) => SHOWCASE_FORMATS.map((format) => ({ name, width, format }))),
      );
      // sharp runs on libuv's pool: the images are made side by side.
      const images = await Promise.all(
        jobs.map(async ({ name, width, format }) => {
          const master = await read(name);
          const { bytes, cached } = await showcaseImage(master, width, format, resolve(root, cacheDir));
          if (!cached) made++;
          return { fileName: `showcase/${name}-${width}.${format}`, bytes };
        }),
      );
      for (const { fileName, bytes } of images) this.emitFile({ type: 'asset', fileName, source: bytes });
      this.info(`showcase: ${images.length} images, ${made} made, ${images.length - made} from the cache`);
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const m = req.url?.match(/^\/showcase\/([\w-]+)-(\d+)\.(avif|webp)$/);
        const width = Number(m?.[2]);
        if (!m?.[1] || !(SHOWCASE_WIDTHS as readonly number[]).includes(width)) return next();
        try {
          const format = m[3] as ShowcaseFormat;
          const { bytes } = await showcaseImage(await read(m[1]), width, format, resolve(root, cacheDir));
          res.setHeader('Content-Type', `image/${format}`);
          res.end(bytes);
        } catch {
          next();
        }
      });
    },
  };
}
