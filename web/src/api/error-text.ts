/** One entry of a validation error list (`detail: [{loc, msg}]`). */
interface DetailItem {
  loc?: unknown;
  msg?: unknown;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function detailText(detail: unknown): string | null {
  if (nonEmpty(detail)) return detail;
  if (!Array.isArray(detail)) return null;
  const parts = (detail as DetailItem[])
    .map((item) => {
      if (nonEmpty(item)) return item;
      if (!item || typeof item !== 'object') return '';
      const loc = Array.isArray(item.loc) ? item.loc.join('.') : nonEmpty(item.loc) ? item.loc : '';
      const msg = nonEmpty(item.msg) ? item.msg : '';
      return loc && msg ? `${loc}: ${msg}` : msg || loc;
    })
    .filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}

/**
 * The text to show for a failed answer, taken in order from: `detail` (a string, or a list of
 * loc/msg pairs joined), `message`, `error`, the body as text, the status text.
 */
export function errorTextOf(bodyText: string, statusText: string, status?: number): string {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  if (body && typeof body === 'object') {
    const { detail, message, error } = body as Record<string, unknown>;
    const fromDetail = detailText(detail);
    if (fromDetail) return fromDetail;
    if (nonEmpty(message)) return message;
    if (nonEmpty(error)) return error;
  }
  if (nonEmpty(bodyText)) return bodyText.trim();
  if (nonEmpty(statusText)) return statusText;
  return status ? `HTTP ${status}` : 'Request failed';
}
