import { QueryClient, useQuery } from '@tanstack/react-query';
import { fetchBalance, fetchGenerationOptions, fetchImages, fetchProducts, fetchTokenHistory } from './endpoints';
import type { ImagePage } from './schema';

const MINUTE = 60_000;

/**
 * Data is stale after 10 s and dropped 2 min after its last user; no retries and no refetch on
 * focus or mount unless a query asks (the balance does).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Every query names its own function over the typed client (./endpoints): none is fetched by key.
      queries: {
        staleTime: 10_000,
        gcTime: 2 * MINUTE,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The cache keys: the /api path each query reads (other screens invalidate by these). */
export const queryKeys = {
  products: ['/api/payments/products'] as const,
  generationOptions: ['/api/images/options'] as const,
  balance: ['/api/tokens/balance'] as const,
  tokenHistory: ['/api/tokens/'] as const,
  images: (page: number) => ['/api/images/', page] as const,
};

export function useProducts() {
  return useQuery({ queryKey: queryKeys.products, queryFn: fetchProducts, staleTime: 5 * MINUTE });
}

/**
 * Whether this deployment offers advanced prompting (a generative provider configured): the plan
 * cards promise it, and subscribers get the instruction field, only when the answer says so.
 */
export function useGenerationOptions() {
  return useQuery({ queryKey: queryKeys.generationOptions, queryFn: fetchGenerationOptions, staleTime: 5 * MINUTE });
}

/** The balance is always asked again on the dashboard; elsewhere an answer of under 30 s will do. */
export function useTokenBalance(options: { enabled: boolean; onDashboard?: boolean }) {
  return useQuery({
    queryKey: queryKeys.balance,
    queryFn: ({ signal }) => fetchBalance(signal),
    enabled: options.enabled,
    staleTime: options.onDashboard ? 0 : 30_000,
    refetchOnMount: 'always',
  });
}

export function useTokenHistory(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.tokenHistory,
    queryFn: ({ signal }) => fetchTokenHistory(signal),
    enabled,
    staleTime: 10 * MINUTE,
  });
}

/** A page of the caller's images; `poll` answers how long until the next refetch (false: none). */
export function useImages(page: number, enabled: boolean, poll?: (data: ImagePage | undefined) => number | false) {
  return useQuery({
    queryKey: queryKeys.images(page),
    queryFn: ({ signal }) => fetchImages(page, signal),
    enabled,
    staleTime: 5 * MINUTE,
    refetchInterval: poll ? (query) => poll(query.state.data) : false,
  });
}
