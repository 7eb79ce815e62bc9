// Pure helpers that keep metric labels few and stable: a status class instead of any number a
// client can provoke, a gRPC status by name, a route template instead of a path.
import { status } from '@grpc/grpc-js';

/** `2xx`, `4xx`, `5xx` ... of an HTTP status; `other` for anything outside 100-599. */
export function statusClass(code: number): string {
  return Number.isInteger(code) && code >= 100 && code <= 599 ? `${Math.floor(code / 100)}xx` : 'other';
}

const grpcCodeNames = new Map<number, string>(
  Object.entries(status)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => [v as number, k]),
);

/** The name of a gRPC status code (`OK`, `NOT_FOUND`); `UNKNOWN` for a number gRPC does not define. */
export function grpcCodeName(code: number): string {
  return grpcCodeNames.get(code) ?? 'UNKNOWN';
}

/**
 * Splits a gRPC path (`/flatlay.ledger.v1.LedgerService/Spend`) into its service and method;
 * the path is one the server serves (the handler was found), so it is bounded.
 */
export function grpcMethodOf(path: string): { service: string; method: string } {
  const at = path.lastIndexOf('/');
  return { service: path.slice(1, at > 0 ? at : undefined), method: at >= 0 ? path.slice(at + 1) : path };
}

/**
 * The `http.route` of a request Express answered: the template of the route that matched it
 * (`/api` plus the operation's path for the API router), never the path itself, so a user id in a
 * path never becomes a label. Undefined when no route matched (a 404, a static file).
 */
export function routeTemplate(mountedAt: string, routePath: unknown): string | undefined {
  if (typeof routePath !== 'string') return undefined;
  return `${mountedAt}${routePath}`;
}
