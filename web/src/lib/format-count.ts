/**
 * A whole count with thousands separators, as `toLocaleString('en-US')` writes it ("12,345"): the
 * app's one way of writing token balances, token counts and the operator's figures.
 *
 * The public pages show token counts while React hydrates them, and the first `Intl` call of a page
 * loads the locale's formatting data: measured as the page's single most expensive function during
 * hydration (about 25 ms, 100 ms on Lighthouse's 4x slower phone; ADR 0717). Grouping digits needs
 * no locale data. Anything but a safe whole number goes to `Intl`, which knows what to do with it.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
