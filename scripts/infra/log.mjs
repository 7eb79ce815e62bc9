// The `[infra]` progress log, shared by all modules. `quiet` is one switch for the whole run:
// install/up/down/status set it from their options and it stays as set for later calls.

let quiet = false;

export const setQuiet = (q) => {
  quiet = q;
};
export const isQuiet = () => quiet;

export const log = (...a) => {
  if (!quiet) console.log('[infra]', ...a);
};
