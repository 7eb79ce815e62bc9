import { ApiError } from '../../api/http';

/**
 * The toast title when a subscription checkout cannot start: payments not set up or not
 * reachable (501 NOT_CONFIGURED, or no answer at all) is 'Payment System Unavailable'; anything
 * else the server refused is 'Setup Failed' with its message.
 */
export function checkoutErrorTitle(error: unknown): 'Payment System Unavailable' | 'Setup Failed' {
  if (error instanceof ApiError) return error.status === 501 ? 'Payment System Unavailable' : 'Setup Failed';
  return error instanceof TypeError ? 'Payment System Unavailable' : 'Setup Failed';
}
