import { call, type Logger } from '@flatlay/platform';
import { exportFolder, urlSigner } from '@flatlay/files';
import type { ServiceClients } from '../clients.js';
import type { FileServing } from '../files/serve.js';
import { EXPORT_TTL_SECONDS, gatherArchive } from './data-archive.js';

/** Where archives are kept; a key per request, so a retry overwrites its own half-made archive. */
export const exportKey = (userId: string, exportId: string) => `${exportFolder(userId)}${exportId}.json`;

/**
 * How often the worker asks for due requests. A new request is also taken at once (`nudge`), so
 * this is the retry path: a request a dead worker held comes back when its lease (1 minute) ends.
 */
const POLL_MS = 5_000;

/** Archives deleted per round of the sweep (a round repeats while it finds a full batch). */
const SWEEP_BATCH = 100;
/** Expired archives are looked for at most this often (their age is counted in days). */
const SWEEP_EVERY_MS = 60_000;

export interface DataExportWorker {
  /** Makes at most one due export; true when it made one (or found one gone). */
  runOnce(): Promise<boolean>;
  /** Deletes a batch of archives whose links have expired; answers how many. */
  sweepOnce(): Promise<number>;
  /** Look now (a request was just made). */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * The gateway's part of a data export (ADR 0403): it claims a request from identity, gathers the
 * archive from every service, stores it where the files are served, and hands identity the signed
 * link to mail. Each step can be repeated: the archive's key is the request's, and identity
 * completes (and mails) a request once; a failure leaves the request to come back after its lease.
 */
export function startDataExports(
  clients: ServiceClients,
  files: FileServing,
  logger: Logger,
  options: { pollMs?: number; clock?: () => Date } = {},
): DataExportWorker {
  const clock = options.clock ?? files.clock ?? (() => new Date());
  const signer = urlSigner(files.urlKey);
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = Number.NEGATIVE_INFINITY;

  const runOnce = async (): Promise<boolean> => {
    const id = clients.identity();
    const claim = await call(id, id.claimDataExport, { leaseSeconds: 0 });
    if (!claim.exportId) return false;
    const now = clock();
    const archive = await gatherArchive(clients, claim.userId, files.urlKey, now, claim.siteUrl);
    const key = exportKey(claim.userId, claim.exportId);
    await files.blobs.put(key, Buffer.from(JSON.stringify(archive, null, 2)), 'application/json');
    const expiresAt = new Date(now.getTime() + EXPORT_TTL_SECONDS * 1000);
    const archivePath = signer.sign(`/files/${key}`, now, EXPORT_TTL_SECONDS);
    await call(id, id.completeDataExport, { exportId: claim.exportId, archivePath, expiresAt });
    logger.info({ exportId: claim.exportId }, 'data export made');
    return true;
  };

  // An archive is kept as long as its link works (7 days), then deleted: identity lists the closed
  // requests of that age, the archives go, and only then are they marked, so a crash in between
  // deletes them again (a missing blob is no error) rather than leaving one behind.
  const sweepOnce = async (): Promise<number> => {
    const id = clients.identity();
    const { exports } = await call(id, id.listExpiredDataExports, {
      olderThanSeconds: EXPORT_TTL_SECONDS,
      limit: SWEEP_BATCH,
    });
    for (const e of exports) await files.blobs.delete(exportKey(e.userId, e.exportId));
    if (exports.length) await call(id, id.markDataExportsSwept, { exportIds: exports.map((e) => e.exportId) });
    return exports.length;
  };

  // Drains what is due, one at a time; a failure waits for the next round (the lease brings it back).
  const drain = async () => {
    try {
      while (!stopped && (await runOnce()));
    } catch (err) {
      if (!stopped) logger.warn({ err }, 'a data export failed; it is retried when its lease ends');
    }
    if (clock().getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = clock().getTime();
    try {
      while (!stopped && (await sweepOnce()) === SWEEP_BATCH);
    } catch (err) {
      if (!stopped) logger.warn({ err }, 'deleting expired data exports failed; tried again next round');
    }
  };
  const tick = () => {
    if (stopped || running) return;
    running = drain().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(tick, options.pollMs ?? POLL_MS);
    });
  };
  timer = setTimeout(tick, 0);

  return {
    runOnce,
    sweepOnce,
    nudge() {
      if (running || stopped) return;
      clearTimeout(timer);
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
