import { useSyncExternalStore } from 'react';

/** True only while main.tsx hydrates a prerendered page, or a part of it (see `whileHydrating`). */
let hydrating = false;
/** True only while main.tsx hydrates a prerendered page in parts (see `hydrateInParts`). */
let inParts = false;

/**
 * Runs `hydrate` (main.tsx's `hydrateRoot` of a prerendered page) as the time when every store read
 * through `useStore` answers its server snapshot. The production build runs on Preact (ADR 0718),
 * whose `useSyncExternalStore` has no server snapshot: it would read this browser's storage while
 * taking over the build's markup, and render other markup than the build's (a cookie banner, the
 * /auth form of `?mode=signup`), which Preact patches silently, keeping the reused elements' old
 * attributes. Preact hydrates synchronously, inside this call; React (the component tests) hydrates
 * later and takes the server snapshot itself, so for it this changes nothing.
 */
export function whileHydrating(hydrate: () => void): void {
  const was = hydrating;
  hydrating = true;
  try {
    hydrate();
  } finally {
    hydrating = was;
  }
}

/** Each waiting part's turn (`waitForTurn`), first in the page first. */
const waiting: Array<() => void> = [];
/** Set by the visitor's first input while parts wait (`hydrateEverythingNow`): nothing waits any more. */
let hurried = false;

/**
 * Runs `next` in a task of its own after the browser's next frame, or after 50 ms where no frame comes
 * (a hidden tab, jsdom): Preact runs the effects of what it rendered after the next frame, so the
 * effects of one part run before the next part is hydrated, not all together in one long task.
 */
function afterNextFrame(next: () => void): void {
  let frame: number | undefined;
  const go = () => {
    clearTimeout(timer);
    if (frame !== undefined) cancelAnimationFrame(frame);
    setTimeout(next, 0);
  };
  const timer = setTimeout(go, 50);
  if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(go);
}

/** Whether turns are being handed out (`nextTurnLater` is scheduled). */
let turning = false;
/** Who waits for the last part's turn to be over (`hydrateInParts`). */
const whenAllHydrated: Array<() => void> = [];

/**
 * Hands the next waiting part its turn in a task of its own, after the previous part's effects; once
 * none waits any longer, tells `hydrateInParts`.
 */
function nextTurnLater(): void {
  turning = true;
  afterNextFrame(() => {
    // A part hydrates within its turn's task (Preact renders in microtasks), so nothing may still
    // be hydrating here; this only makes sure of it.
    endHydrating();
    const turn = waiting.shift();
    if (!turn) {
      turning = false;
      for (const done of whenAllHydrated.splice(0)) done();
      return;
    }
    turn();
    // The part renders in this task's microtasks and asks for a frame for its effects then: the next
    // turn asks for its frame from a later task, so that it comes after those effects.
    setTimeout(nextTurnLater, 0);
  });
}

/**
 * The turn of a part of the page being hydrated in parts (`HydrateApart`): `turn` settles in a task of
 * its own, after every part queued before it, and `settled` says whether it has.
 */
export interface PartTurn {
  turn: Promise<void>;
  settled: boolean;
  /** Set by the part once it has been hydrated. */
  hydrated?: boolean;
}

/** Queues a part for a turn of its own; undefined unless a page is being hydrated in parts now. */
export function waitForTurn(): PartTurn | undefined {
  if (!(hydrating && inParts) || hurried) return undefined;
  let settle!: () => void;
  const part: PartTurn = { turn: new Promise<void>((ok) => (settle = ok)), settled: false };
  waiting.push(() => {
    part.settled = true;
    settle();
  });
  if (!turning) nextTurnLater();
  return part;
}

/**
 * Hydrates a prerendered page in parts (ADR 0719): `hydrate` (main.tsx's `hydrateRoot`) takes over
 * the page's frame, and every `HydrateApart` in it waits for a task of its own, after those before it
 * in the page. Preact keeps a waiting part's markup as it is (a part that suspends while hydrating)
 * and hydrates it when its turn comes; `resumeHydrating` makes the stores answer their server
 * snapshot for that part, as for the first pass. Resolves once every part has had its turn and the
 * browser has drawn a frame since (the last part's effects have run).
 */
export function hydrateInParts(hydrate: () => void): Promise<void> {
  hurried = false;
  inParts = true;
  try {
    whileHydrating(hydrate);
  } finally {
    inParts = false;
  }
  if (!turning) return Promise.resolve();
  // The visitor's first press, key or focus while parts wait: every part is hydrated at once, in the
  // microtasks that run before the event goes on to its target, so the target answers it (a click on
  // a part not yet hydrated would otherwise do nothing; React replays it, Preact cannot).
  const inputs = ['pointerdown', 'keydown', 'focusin', 'click'] as const;
  const onInput = () => hydrateEverythingNow();
  for (const input of inputs) document.addEventListener(input, onInput, { capture: true });
  return new Promise<void>((done) => whenAllHydrated.push(done)).then(() => {
    for (const input of inputs) document.removeEventListener(input, onInput, { capture: true });
  });
}

/** Gives every waiting part its turn now; parts inside them do not wait either. */
function hydrateEverythingNow(): void {
  hurried = true;
  for (const turn of waiting.splice(0)) turn();
}

/** How many parts wait for their turn now (the hydration test: the first pass left parts to later tasks). */
export function partsWaiting(): number {
  return waiting.length;
}

/**
 * For a part whose turn came (`HydrateApart`): from here until `endHydrating`, which the part calls
 * once its content's layout effects have run, the stores answer their server snapshot and parts
 * inside it queue for a turn.
 */
export function resumeHydrating(): void {
  hydrating = true;
  inParts = true;
}

/** The end of a part's hydration (see `resumeHydrating`). */
export function endHydrating(): void {
  hydrating = false;
  inParts = false;
}

/**
 * `useSyncExternalStore` whose server snapshot is also the one taken while hydrating, on React and on
 * Preact alike: the build's render and the hydration see the server snapshot, every later render
 * (and a render from nothing) the client's. After hydration the store hook finds the snapshot
 * changed (Preact checks it in an effect; React renders again) and renders the client's.
 */
export function useStore<T>(subscribe: (onChange: () => void) => () => void, client: () => T, server: () => T): T {
  return useSyncExternalStore(subscribe, () => (hydrating ? server() : client()), server);
}

const never = () => () => {};

/**
 * false while a prerendered page is hydrated (and on the build's render), true from then on and on
 * every render from nothing. What depends on this browser (storage, media queries, settings read
 * from the page) renders only when it is true, so hydration meets exactly the build's markup
 * (ADR 0714, ADR 0718).
 */
export function useHydrated(): boolean {
  return useStore(
    never,
    () => true,
    () => false,
  );
}
