export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 50;

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

/** Page and limit as given (0 means the default); undefined when out of range. */
export function pageRequest(page: number, limit: number): PageRequest | undefined {
  const p = page === 0 ? 1 : page;
  const l = limit === 0 ? DEFAULT_PAGE_SIZE : limit;
  if (!Number.isInteger(p) || p < 1 || !Number.isInteger(l) || l < 1 || l > MAX_PAGE_SIZE) return undefined;
  return { page: p, limit: l, offset: (p - 1) * l };
}

export function pagination(request: PageRequest, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / request.limit));
  return {
    page: request.page,
    totalPages,
    hasPrev: request.page > 1,
    hasNext: request.page < totalPages,
    total,
    limit: request.limit,
  };
}
