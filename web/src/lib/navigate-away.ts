/** Leaves the app for a hosted page (checkout, billing portal). One function, so tests can replace it. */
export function navigateAway(url: string): void {
  window.location.assign(url);
}
