// Business constants the client shows or checks; the server enforces its own copy of each rule.
export const TOKENS_PER_IMAGE = 100;
export const TOKENS_PER_UNLOCK = 100;
export const FREE_SIGNUP_TOKENS = 200;
/** The one-off unlock price as buttons show it; what is charged is the server's single configured value. */
export const UNLOCK_PRICE_LABEL = '$5';
export const UPLOAD_LIMIT_TEXT = '10MB';

export const HERO_POLL = { intervalMs: 2000, timeoutMs: 5 * 60_000 };
export const DASHBOARD_POLL = { intervalMs: 1000, tries: 30 };

export const imagesFromTokens = (balance: number) => Math.floor(balance / TOKENS_PER_IMAGE);
export const formatMinorUnits = (amount: number, currency = 'usd') =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
