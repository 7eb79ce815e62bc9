// The `[infra]` progress log, shared by all modules. `quiet` is one switch for the whole run:
// install/up/down/status set it from their options and it stays as set for later calls.

let quiet = false;

/** @param {boolean} q */
export const setQuiet = (q) => {
  quiet = q;
};
export const isQuiet = () => quiet;

/** @param {...unknown} a */
export const log = (...a) => {
  if (!quiet) console.log('[infra]', ...a);
};
