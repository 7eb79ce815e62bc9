import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from '../../components/toast/toast-store';
import { trackPixel } from '../../lib/pixels';

/** The tracked value of a one-off unlock (the spec's figure; buttons advertise $5). */
export const UNLOCK_PURCHASE_VALUE = { value: 2.99, currency: 'USD' } as const;

/**
 * Back on the dashboard from the hosted payment page of an unlock: `unlock_success=true` records
 * the purchase and refreshes the images; `unlock_cancelled=true` only clears the query.
 */
export function useUnlockReturn(): void {
  const [query, setQuery] = useSearchParams();
  const queryClient = useQueryClient();
  const success = query.get('unlock_success') === 'true';
  const cancelled = query.get('unlock_cancelled') === 'true';

  useEffect(() => {
    if (!success && !cancelled) return;
    setQuery({}, { replace: true });
    if (!success) return;
    trackPixel('Purchase', { ...UNLOCK_PURCHASE_VALUE, content_name: 'image_unlock' });
    toast({ title: 'Image Unlocked!', description: 'Your enhanced image is ready to download.' });
    void queryClient.invalidateQueries({ queryKey: ['/api/images/'] });
    void queryClient.invalidateQueries({ queryKey: ['/api/tokens/balance'] });
  }, [success, cancelled, setQuery, queryClient]);
}
