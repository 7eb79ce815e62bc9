import { randomUUID } from 'node:crypto';
import { AppError, enqueueMail, withTransaction, type Pool } from '@flatlay/platform';
import { dataExportStore } from '../adapters/data-export-store.js';
import { userStore } from '../adapters/user-store.js';

/**
 * How long a claim holds when the worker names none. Gathering an archive takes seconds; a worker
 * that died holding one leaves the person waiting this long for the retry. A lease that runs out
 * under a slow worker costs nothing but work: both write the same file, and completing mails once.
 */
export const DEFAULT_EXPORT_LEASE_SECONDS = 60;

/**
 * Claims a request gets before it is given up: ten tries a lease apart (about ten minutes) carry
 * it through a restart or a short outage; one that fails every time (an archive that cannot be
 * gathered) is closed and the person told, rather than retried forever while blocking a new ask.
 */
export const MAX_EXPORT_ATTEMPTS = 10;

/**
 * Exports of a person's data (ADR 0403). Identity owns the request and the message; the archive
 * is gathered by the gateway, which may call every service and serves the files. A request is a
 * row retried until its worker completes it, and completing it queues the e-mail in the same
 * transaction, so a crash anywhere sends exactly one message (or retries the archive).
 */
export class DataExports {
  private readonly clock: () => Date;

  constructor(
    private readonly pool: Pool,
    clock?: () => Date,
  ) {
    this.clock = clock ?? (() => new Date());
  }

  /** A new request, or the one still being made (asking twice makes one archive and one e-mail). */
  async request(userId: string): Promise<string> {
    const user = await userStore.byId(this.pool, userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    return dataExportStore.insertOpen(this.pool, randomUUID(), userId, this.clock());
  }

  /**
   * The oldest due request, held for the lease. First closes the requests whose last claim ran out
   * (each with its e-mail, in the same transaction), so none is claimed past its bound.
   */
  async claim(leaseSeconds: number): Promise<{ id: string; userId: string } | undefined> {
    const lease = leaseSeconds > 0 ? Math.min(leaseSeconds, 3600) : DEFAULT_EXPORT_LEASE_SECONDS;
    const now = this.clock();
    await withTransaction(this.pool, async (tx) => {
      for (const given of await dataExportStore.giveUpExhausted(tx, now, MAX_EXPORT_ATTEMPTS)) {
        const user = await userStore.byId(tx, given.userId);
        if (user) await enqueueMail(tx, { kind: 'data-export-failed', recipient: user.email, params: {} });
      }
    });
    return dataExportStore.claimDue(this.pool, now, lease, MAX_EXPORT_ATTEMPTS);
  }

  /**
   * Requests closed at least `ageSeconds` ago whose archive the gateway has not yet deleted (their
   * links expired with that age); it deletes each archive, then calls `archivesSwept`.
   */
  async expiredArchives(ageSeconds: number, limit: number): Promise<{ id: string; userId: string }[]> {
    if (!(ageSeconds > 0)) throw new AppError('INVALID_ARGUMENT', 'older_than_seconds must be positive');
    const before = new Date(this.clock().getTime() - ageSeconds * 1000);
    return dataExportStore.unswept(this.pool, before, Math.min(Math.max(limit, 1), 500));
  }

  async archivesSwept(exportIds: string[]): Promise<number> {
    return dataExportStore.markSwept(this.pool, exportIds, this.clock());
  }

  /** Done, with the e-mail carrying the archive's link; false when it was done already or its account is gone. */
  async complete(exportId: string, archivePath: string, expiresAt: Date): Promise<boolean> {
    if (!archivePath.startsWith('/')) throw new AppError('INVALID_ARGUMENT', 'archive_path must start with /');
    return withTransaction(this.pool, async (tx) => {
      const userId = await dataExportStore.complete(tx, exportId, this.clock());
      if (!userId) return false;
      const user = await userStore.byId(tx, userId);
      if (!user) return false;
      await enqueueMail(tx, {
        kind: 'data-export-ready',
        recipient: user.email,
        params: { archivePath, expiresAt: expiresAt.toISOString() },
      });
      return true;
    });
  }
}
