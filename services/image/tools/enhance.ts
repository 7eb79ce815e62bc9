import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createEngine,
  type Engine,
  type EnhanceOptions,
  type EnhanceResult,
  isEngineError,
} from '../src/engine/index.js';
import { resolveOptions } from '../src/engine/options.js';
import { resolvePreset } from '../src/engine/presets/index.js';
import { resolveRecipe } from '../src/engine/recipes/index.js';

/** What a seller should read when an input path is the problem, not the image. */
const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file: check the path',
  EISDIR: 'this is a folder: give the image files inside it',
  EACCES: 'the file cannot be read (permission denied)',
};

const USAGE = `usage: npm run enhance -- [options] INPUT... --out DIR
  --type T             clothing | accessory | shoes | details, or a sub-type
                       (tops, bottoms, socks, jewelry, bags_belts, accessory_headwear,
                        two_shoe, side_view, front_view, logo_detail, fabric_texture, hardware_tag)
  --background B       white | grey                       (default white)
  --shadow, --no-shadow  soft contact shadow               (default off)
  --size N             long side in pixels, up to 4096     (default 2048 or the preset's)
  --format F           jpeg | png | webp | avif            (default jpeg)
  --transparent        PNG with the cut-out's alpha on a transparent canvas
  --preset P           amazon | shopify | zalando | ebay | etsy | vinted
  --out DIR            folder for the results (required)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/** The command line, parsed; a malformed one ends the process with the usage. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        type: { type: 'string' },
        background: { type: 'string' },
        shadow: { type: 'boolean' },
        'no-shadow': { type: 'boolean' },
        size: { type: 'string' },
        format: { type: 'string' },
        transparent: { type: 'boolean' },
        preset: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail((err as Error).message);
  }
}

/**
 * One input of the command line: the file read, enhanced and written into `outDir` under a name
 * not yet `used`, timed from the read to the write (bench:engine times this same path).
 */
export async function enhanceFile(
  engine: Engine,
  input: string,
  options: EnhanceOptions,
  outDir: string,
  used = new Set<string>(),
): Promise<{ output: string; result: EnhanceResult; ms: number }> {
  const started = performance.now();
  const result = await engine.enhance(await readFile(input), options);
  const ext = result.format === 'jpeg' ? 'jpg' : result.format;
  let name = `${path.parse(input).name}.${ext}`;
  for (let k = 2; used.has(name); k++) name = `${path.parse(input).name}-${k}.${ext}`;
  used.add(name);
  const output = path.join(outDir, name);
  await writeFile(output, result.full);
  return { output, result, ms: Math.round(performance.now() - started) };
}

export async function main(argv: string[]): Promise<number> {
  const { values: v, positionals: inputs } = parseCommandLine(argv);
  if (v.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!v.out) fail('--out DIR is required');
  if (inputs.length === 0) fail('give at least one INPUT image');
  const size = v.size === undefined ? undefined : Number(v.size);
  const options: EnhanceOptions = {
    type: v.type,
    background: v.background as EnhanceOptions['background'],
    shadow: v['no-shadow'] ? false : v.shadow,
    size,
    format: v.format as EnhanceOptions['format'],
    transparent: v.transparent,
    preset: v.preset,
  };
  try {
    // refuse bad options before the model loads: they would fail every input the same way
    const resolved = resolveOptions(options);
    resolveRecipe(resolved.type, resolved.subType);
    resolvePreset(resolved.preset);
  } catch (err) {
    fail((err as Error).message);
  }
  await mkdir(v.out, { recursive: true });
  const engine = await createEngine(); // the model loads once, before the first image
  // where it runs goes to stderr, so stdout stays one JSON line per input
  if (engine.runtime) process.stderr.write(`${JSON.stringify({ engine: engine.runtime })}\n`);
  for (const w of engine.runtime?.warnings ?? []) process.stderr.write(`warning: ${w}\n`);
  let failures = 0;
  const used = new Set<string>();
  for (const input of inputs) {
    try {
      const { output, result, ms } = await enhanceFile(engine, input, options, v.out, used);
      process.stdout.write(
        `${JSON.stringify({ input, output, width: result.width, height: result.height, ms, checks: result.checks })}\n`,
      );
    } catch (err) {
      failures++;
      const code = isEngineError(err) ? err.code : ((err as NodeJS.ErrnoException).code ?? 'INTERNAL');
      const message = FILE_ERRORS[code] ?? (err as Error).message;
      process.stdout.write(`${JSON.stringify({ input, error: { code, message } })}\n`);
    }
  }
  await engine.close();
  return failures === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${isEngineError(err) ? `${err.code}: ` : ''}${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
