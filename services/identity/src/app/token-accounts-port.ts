import { ledger } from '@flatlay/proto';
import { call, createClient } from '@flatlay/platform';

/** The ledger as identity needs it: the sign-up grant and the balance at sign-in. */
export interface TokenAccountsPort {
  /** Opens the user's token account with the sign-up grant; idempotent; answers the balance. */
  openAccount(userId: string): Promise<number>;
  balance(userId: string): Promise<number>;
  close(): void;
}

export function ledgerTokenAccounts(address: string): TokenAccountsPort {
  const client = createClient(ledger.LedgerServiceClient, address);
  return {
    openAccount: async (userId) => (await call(client, client.openAccount, { userId }, { deadlineMs: 5_000 })).balance,
    balance: async (userId) => (await call(client, client.getBalance, { userId }, { deadlineMs: 3_000 })).balance,
    close: () => client.close(),
  };
}
