/**
 * `load`'s answer, kept for `ms` and shared by every caller meanwhile; a failed load is not kept
 * (the next caller asks again). The public pages' offers use it: the home page is the most visited
 * page, and the catalogue changes with a release or a restart of billing, not per visit.
 */
export function remembered<T>(load: () => Promise<T>, ms: number, now: () => number = Date.now): () => Promise<T> {
  let kept: { at: number; answer: Promise<T> } | undefined;
  return () => {
    if (!kept || now() - kept.at >= ms) {
      const answer = load();
      const entry = { at: now(), answer };
      kept = entry;
      answer.catch(() => {
        if (kept === entry) kept = undefined;
      });
    }
    return kept.answer;
  };
}
