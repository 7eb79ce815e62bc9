import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The garments dataset a tool reads: the folder given on its command line, else the one named by
 * FLATLAY_DATASET. A clone carries no dataset (its photos are not all redistributable), so without
 * either the tool stops and says what to pass.
 */
export function datasetFolder(given: string | undefined, script: string): string {
  const named = given || process.env.FLATLAY_DATASET;
  const folder = named ? path.resolve(named) : undefined;
  if (folder && existsSync(folder) && statSync(folder).isDirectory()) return folder;
  const why = folder ? `no dataset folder at ${folder}` : 'no dataset folder given';
  process.stderr.write(
    `${why}\nusage: npm run ${script} -- /path/to/garments   (or set FLATLAY_DATASET; the folder holds casual/, clean/ and backgrounds/)\n`,
  );
  process.exit(2);
}
