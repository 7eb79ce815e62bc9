import { ledger } from '@flatlay/proto';
import { AppError, call, createClient, type ServiceCredential } from '@flatlay/platform';

/**
 * What the image service asks of the ledger while a user waits. Both calls are idempotent by
 * image id on the ledger's side, so a retried call never charges or refunds twice.
 */
export interface LedgerPort {
  /** Takes 100 tokens (0 inside an unlimited plan); INSUFFICIENT_TOKENS carries the balance. */
  spend(
    userId: string,
    imageId: string,
    purpose: 'enhancement' | 'unlock',
  ): Promise<{ charged: number; balance: number }>;
  /** Gives back what the enhancement spend for the image took; 0 when there was none. */
  refund(userId: string, imageId: string): Promise<{ refunded: number; balance: number }>;
  close(): void;
}

const purposes = {
  enhancement: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT,
  unlock: ledger.SpendPurpose.SPEND_PURPOSE_UNLOCK,
} as const;

/** The ledger over gRPC; the address is resolved on first use (the embedded default learns it late). */
export function grpcLedger(address: () => string, credential: Pick<ServiceCredential, 'interceptor'>): LedgerPort {
  let client: ledger.LedgerServiceClient | undefined;
  const get = () => {
    client ??= createClient(ledger.LedgerServiceClient, address(), credential);
    return client;
  };
  return {
    async spend(userId, imageId, purpose) {
      const c = get();
      const r = await call(c, c.spend, { userId, imageId, purpose: purposes[purpose] });
      return { charged: r.charged, balance: r.balance };
    },
    async refund(userId, imageId) {
      const c = get();
      try {
        const r = await call(c, c.refund, { userId, imageId });
        return { refunded: r.refunded, balance: r.balance };
      } catch (error) {
        // No enhancement spend for this image: nothing was taken, so nothing is owed.
        if (error instanceof AppError && error.code === 'NOT_FOUND') return { refunded: 0, balance: -1 };
        throw error;
      }
    },
    close() {
      client?.close();
      client = undefined;
    },
  };
}
