import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Mask } from '../../src/engine/types.js';

/**
 * The peer in the eval: @imgly/background-removal-node run as its users run it (its own code, its
 * 'medium' ISNet at its fixed 1024 px, its bilinear resizes), on the same scenes as the engine, so
 * the engine's IoU is read beside a known remover's. It is not a dependency of the product for
 * this: the eval installs its own copy into a cache outside the clone, so the comparison keeps
 * working when an operator drops the package from the product (ADR 0106) and the product's
 * lockfile never carries the peer's old sharp and onnxruntime-node.
 */
export const PEER_PACKAGE = '@imgly/background-removal-node';
export const PEER_VERSION = '1.4.5';

/** Where the peer is installed: ~/.cache/flatlay/eval-peer/<version>, one install per version. */
export function peerDir(version = PEER_VERSION, home = os.homedir()): string {
  return path.join(home, '.cache', 'flatlay', 'eval-peer', version);
}

/**
 * The cache's package.json. The peer asks for sharp ~0.32 and onnxruntime-node ~1.17; both are
 * overridden to the project's own versions: sharp 0.32 fetches libvips in an install script and
 * onnxruntime-node's installer fetches CUDA parts, which `--ignore-scripts` skips, while the
 * project's versions carry their CPU binaries in the package (and load beside the engine's copies
 * in one process without two different native libraries of one name).
 */
export function peerManifest(versions: { sharp: string; onnxruntime: string }, version = PEER_VERSION) {
  return {
    name: 'flatlay-eval-peer',
    private: true,
    description: 'The eval peer (services/image/tools/eval/peer.ts); safe to delete',
    dependencies: { [PEER_PACKAGE]: version },
    overrides: { sharp: versions.sharp, 'onnxruntime-node': versions.onnxruntime },
  };
}

/** `image/x-rgba8;width=W;height=H`, the peer's raw output type, to its size. */
export function rgbaSize(mime: string): { width: number; height: number } {
  const params = Object.fromEntries(
    mime
      .split(';')
      .slice(1)
      .map((p) => p.split('=').map((s) => s.trim()) as [string, string]),
  );
  const width = Number(params.width),
    height = Number(params.height);
  if (!mime.startsWith('image/x-rgba8') || !(width > 0) || !(height > 0))
    throw new Error(`the peer answered ${mime}, not image/x-rgba8 with its size`);
  return { width, height };
}

/** The alpha channel of RGBA pixels as a mask. */
export function alphaOf(rgba: Uint8Array, width: number, height: number): Mask {
  if (rgba.length !== width * height * 4) throw new Error(`${rgba.length} bytes are not ${width} x ${height} RGBA`);
  const data = new Uint8Array(width * height);
  for (let p = 0; p < data.length; p++) data[p] = rgba[p * 4 + 3]!;
  return { data, width, height };
}

const versionOf = async (root: string, name: string) =>
  (JSON.parse(await readFile(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

/**
 * Installs the peer into `dir` once (npm install --ignore-scripts, about 450 MB with the
 * project's sharp and onnxruntime-node; the registry is the only place reached: the peer's weights
 * are files of its own package, under dist/) and returns the package's folder.
 */
export async function installPeer(root: string, dir = peerDir()): Promise<string> {
  const pkg = path.join(dir, 'node_modules', ...PEER_PACKAGE.split('/'));
  const marker = path.join(dir, 'installed.json');
  if (existsSync(marker) && existsSync(path.join(pkg, 'dist', 'resources.json'))) return pkg;
  await mkdir(dir, { recursive: true });
  const versions = { sharp: await versionOf(root, 'sharp'), onnxruntime: await versionOf(root, 'onnxruntime-node') };
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(peerManifest(versions), null, 2)}\n`);
  process.stdout.write(`eval peer: installing ${PEER_PACKAGE}@${PEER_VERSION} into ${dir}\n`);
  await promisify(execFile)('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
    maxBuffer: 16 << 20,
  });
  await writeFile(marker, `${JSON.stringify({ version: PEER_VERSION, ...versions })}\n`);
  return pkg;
}

export interface Peer {
  name: string;
  /** The peer's alpha (0-255) at the photo's own size. */
  segment(photo: Buffer): Promise<Mask>;
}

interface PeerModule {
  removeBackground(
    image: Blob,
    config: { publicPath: string; model: 'medium'; output: { format: 'image/x-rgba8' } },
  ): Promise<Blob>;
}

/**
 * The peer, loaded from its install. Its weights are read from its own dist/ through
 * `publicPath`: the package's default is `node_modules/...` under the process's working directory,
 * which from the repository root would be the product's copy, not the eval's.
 */
export async function loadPeer(root: string, dir = peerDir()): Promise<Peer> {
  const pkg = await installPeer(root, dir);
  const mod = (await import(pathToFileURL(path.join(pkg, 'dist', 'index.mjs')).href)) as PeerModule;
  const publicPath = `${pathToFileURL(path.join(pkg, 'dist')).href}/`;
  return {
    name: `${PEER_PACKAGE}@${PEER_VERSION} (medium, 1024 px)`,
    async segment(photo) {
      const out = await mod.removeBackground(new Blob([photo], { type: 'image/jpeg' }), {
        publicPath,
        model: 'medium',
        output: { format: 'image/x-rgba8' },
      });
      const { width, height } = rgbaSize(out.type);
      return alphaOf(new Uint8Array(await out.arrayBuffer()), width, height);
    },
  };
}
