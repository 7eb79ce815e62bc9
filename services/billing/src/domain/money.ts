/** '$24' for whole dollars, '$230.40' otherwise: amounts are cents, shown divided by 100. */
export function displayPrice(cents: number): string {
  const dollars = cents / 100;
  return Number.isInteger(dollars) ? `$${dollars}` : `$${dollars.toFixed(2)}`;
}

/** What one image (100 tokens) costs in a pack, in dollars, to the cent. */
export function perImageCost(amountCents: number, tokens: number): number {
  return Math.round((amountCents * 100) / tokens) / 100;
}
