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

/** A part waiting for its turn: giving it (settles the part's `turn`). */
type WaitingPart = () => void;

/**
 * Parts whose turns come one per task, first in the page first: those near the viewport, and those
 * whose place nothing tells (no element found, no IntersectionObserver).
 */
const nearby: WaitingPart[] = [];
/**
 * Parts away from the viewport (ADR 0720): each joins `nearby` once it comes within half a screen of
 * it, or takes its turn at once when the visitor's input lands inside it.
 */
const away = new Map<Element, WaitingPart>();
/** Watches the parts in `away`; made for the first one. */
let sight: IntersectionObserver | undefined;
/**
 * Set by the visitor's input while parts wait (`hydrateNowFor`) until the end of that task: the parts
 * inside the ones it hydrates do not wait either.
 */
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

/** A part whose element left the page (the visitor went to another page) no longer waits. */
function forgetPartsGone(): void {
  for (const element of away.keys()) if (!element.isConnected) forget(element);
}

/** Tells `hydrateInParts` once no part waits, near or away. */
function settleIfNoneWaits(): void {
  forgetPartsGone();
  if (turning || nearby.length > 0 || away.size > 0) return;
  for (const done of whenAllHydrated.splice(0)) done();
}

/**
 * Hands the next nearby part its turn in a task of its own, after the previous part's effects; once
 * none is nearby, stops until one comes into sight (`cameIntoSight`).
 */
function nextTurnLater(): void {
  turning = true;
  afterNextFrame(() => {
    // A part hydrates within its turn's task (Preact renders in microtasks), so nothing may still
    // be hydrating here; this only makes sure of it.
    endHydrating();
    const part = nearby.shift();
    if (!part) {
      turning = false;
      settleIfNoneWaits();
      return;
    }
    part();
    // The part renders in this task's microtasks and asks for a frame for its effects then: the next
    // turn asks for its frame from a later task, so that it comes after those effects.
    setTimeout(nextTurnLater, 0);
  });
}

function queueTurn(part: WaitingPart): void {
  nearby.push(part);
  if (!turning) nextTurnLater();
}

function forget(element: Element): void {
  away.delete(element);
  sight?.unobserve(element);
}

/** Parts that came within half a screen of the viewport queue for their turns. */
function cameIntoSight(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    const part = away.get(entry.target);
    if (!entry.isIntersecting || !part) continue;
    forget(entry.target);
    queueTurn(part);
  }
}

/** The element the build rendered for the part named `name` (`HydrateApart` marks it). */
function builtElement(name: string): Element | null {
  return document.querySelector(`template[data-part="${name}"]`)?.nextElementSibling ?? null;
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

/**
 * Queues the part named `name` for a turn of its own: now if it is near the viewport (or nothing
 * tells), once it comes near otherwise. Undefined unless a page is being hydrated in parts now.
 */
export function waitForTurn(name: string): PartTurn | undefined {
  if (!(hydrating && inParts) || hurried) return undefined;
  let settle!: () => void;
  const part: PartTurn = { turn: new Promise<void>((ok) => (settle = ok)), settled: false };
  const go: WaitingPart = () => {
    part.settled = true;
    settle();
  };
  const element = builtElement(name);
  if (element && typeof IntersectionObserver === 'function') {
    // Whether it is near comes with the observer's first report, after the next frame; the margin
    // hydrates a part half a screen before it scrolls into view.
    sight ??= new IntersectionObserver(cameIntoSight, { rootMargin: '0px 0px 50% 0px' });
    away.set(element, go);
    sight.observe(element);
  } else queueTurn(go);
  return part;
}

/**
 * Hydrates a prerendered page in parts (ADR 0719, ADR 0720): `hydrate` (main.tsx's `hydrateRoot`)
 * takes over the page's frame, and every `HydrateApart` in it waits: those near the viewport for a
 * task of their own, after those before them in the page; those further down until they come near.
 * Preact keeps a waiting part's markup as it is (a part that suspends while hydrating) and hydrates
 * it when its turn comes; `resumeHydrating` makes the stores answer their server snapshot for that
 * part, as for the first pass. Resolves once every part has had its turn and the browser has drawn a
 * frame since (the last part's effects have run).
 */
export function hydrateInParts(hydrate: () => void): Promise<void> {
  forgetPartsGone();
  hurried = false;
  inParts = true;
  try {
    whileHydrating(hydrate);
  } finally {
    inParts = false;
  }
  if (!turning && away.size === 0) return Promise.resolve();
  // The visitor's press, key or focus while parts wait: the part it lands in, and every nearby part,
  // is hydrated at once, in the microtasks that run before the event goes on to its target, so the
  // target answers it (a click on a part not yet hydrated would otherwise do nothing; React replays
  // it, Preact cannot).
  const inputs = ['pointerdown', 'keydown', 'focusin', 'click'] as const;
  const onInput = (event: Event) => hydrateNowFor(event.target);
  for (const input of inputs) document.addEventListener(input, onInput, { capture: true });
  return new Promise<void>((done) => whenAllHydrated.push(done)).then(() => {
    for (const input of inputs) document.removeEventListener(input, onInput, { capture: true });
  });
}

/**
 * Gives their turns now to every nearby part and to the part away that `target` is in; the parts
 * inside them, rendered in this task, do not wait.
 */
function hydrateNowFor(target: EventTarget | null): void {
  const now = nearby.splice(0);
  for (const [element, part] of away)
    if (target instanceof Node && element.contains(target)) {
      forget(element);
      now.push(part);
    }
  if (now.length === 0) return;
  hurried = true;
  setTimeout(() => {
    hurried = false;
  }, 0);
  for (const part of now) part();
  settleIfNoneWaits();
}

/** How many parts wait for their turn now, near or away (the hydration test: the first pass left parts to later tasks). */
export function partsWaiting(): number {
  return nearby.length + away.size;
}

/** How many parts wait until they come near the viewport (the hydration test). */
export function partsAway(): number {
  return away.size;
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
