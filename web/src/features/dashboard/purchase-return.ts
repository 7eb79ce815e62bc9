import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { fetchBalance } from '../../api/endpoints';
import { queryKeys } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';
import { toast } from '../../components/toast/toast-store';
import { trackCheckoutReturn } from '../../lib/purchase-tracking';

/** How the balance is watched after a purchase: once a second, 30 times (the dashboard's polling). */
export const PURCHASE_WATCH = { intervalMs: 1000, tries: 30 } as const;

/**
 * Back on the dashboard from the hosted checkout of a token pack or a plan (`payment=success`,
 * billing's success address). The provider confirms the payment to billing, and the ledger credits
 * the tokens a moment after that, possibly after this page has read the balance (with Stripe the
 * webhook often arrives after the browser). So the balance is asked again every second until it
 * differs from the first answer, at most 30 times; then the profile (plan fields) and the token
 * history are refreshed. A guest's return (`enhancement_id` in the query) is the hero's, not this.
 */
export function usePurchaseReturn(watch: { intervalMs: number; tries: number } = PURCHASE_WATCH): void {
  const [query, setQuery] = useSearchParams();
  const queryClient = useQueryClient();
  const { refreshProfile } = useAuth();
  const returned = query.get('payment') === 'success' && !query.has('enhancement_id');
  // Each return starts one watch; clearing the query (which re-renders this) does not end it.
  const [returns, setReturns] = useState(0);

  useEffect(() => {
    if (!returned) return;
    setQuery({}, { replace: true });
    void trackCheckoutReturn();
    toast({ title: 'Payment Successful', description: 'Thank you! Your tokens are being added to your balance.' });
    setReturns((n) => n + 1);
  }, [returned, setQuery]);

  useEffect(() => {
    if (returns === 0) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first: number | undefined;
    const settle = () => {
      void refreshProfile({ force: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.tokenHistory });
    };
    const check = async (tries: number) => {
      let balance: number | undefined;
      try {
        // fetchQuery puts the answer in the shared cache: the header and the balance card follow.
        balance = (
          await queryClient.fetchQuery({
            queryKey: queryKeys.balance,
            queryFn: ({ signal }) => fetchBalance(signal),
            staleTime: 0,
          })
        ).balance;
      } catch {
        // A failed read is one try; the next may answer.
      }
      if (stopped) return;
      if (first === undefined) first = balance;
      else if (balance !== undefined && balance !== first) return settle();
      if (tries + 1 >= watch.tries) return settle();
      timer = setTimeout(() => void check(tries + 1), watch.intervalMs);
    };
    void check(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [returns, queryClient, refreshProfile, watch.intervalMs, watch.tries]);
}
