import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../src/engine/model/isnet-assets.js';

/**
 * The garments dataset a tool reads: the folder given on its command line, else
 * ../shared/datasets/garments beside the checkout when that exists. Without either, the tool
 * stops and says what to pass.
 */
export function datasetFolder(given: string | undefined, script: string): string {
  const folder = given ? path.resolve(given) : path.resolve(repoRoot(), '../shared/datasets/garments');
  if (existsSync(folder) && statSync(folder).isDirectory()) return folder;
  const why = given ? `no dataset folder at ${folder}` : `no dataset folder given, and none at ${folder}`;
  process.stderr.write(
    `${why}\nusage: npm run ${script} -- /path/to/garments   (the folder holding casual/, clean/ and backgrounds/)\n`,
  );
  process.exit(2);
}
