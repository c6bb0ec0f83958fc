/**
 * What the page knows about a new version of the app (issue 18, docs/decisions/190). The service
 * worker is registered lazily (./register.ts, after the first render) and tells this module when a
 * new worker is waiting; the prompt (./update-prompt.tsx, in the first bundle) only reads it. Kept
 * free of the registration code so the prompt costs the first bundle a few hundred bytes.
 */

type Listener = () => void;

let waiting = false;
let dismissed = false;
let applyUpdate: (() => Promise<void>) | null = null;
/** This tab's user pressed Reload: only then may the change of worker reload the page. */
let reloadRequested = false;
/** Another tab activated the new worker, which now serves this one too. */
let controlledByNewWorker = false;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function subscribeToUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the prompt should show: a new version waits and the user has not put it off. */
export function isUpdatePromptShown(): boolean {
  return waiting && !dismissed;
}

/** A new worker is installed and waiting; `apply` asks it to take over (skipWaiting). */
export function announceUpdate(apply: () => Promise<void>): void {
  applyUpdate = apply;
  waiting = true;
  dismissed = false;
  emit();
}

/** "Later": the prompt goes away for this page's life; the next load shows it again. */
export function dismissUpdate(): void {
  dismissed = true;
  emit();
}

/**
 * The new worker now controls this page. Reload only if this tab asked for it: a second tab, perhaps
 * mid-question, keeps its page and keeps its prompt (its Reload then simply reloads).
 */
export function onNewWorkerControlling(reload: () => void): void {
  if (reloadRequested) {
    reload();
    return;
  }
  controlledByNewWorker = true;
  waiting = true;
  emit();
}

/** How long to wait for the new worker to take over before reloading anyway. */
export const TAKE_OVER_TIMEOUT_MS = 3000;

/**
 * The Reload button: ask the waiting worker to take over; the reload follows when it does
 * (onNewWorkerControlling). If it never does (no worker was waiting any more, or it failed to
 * activate) the page reloads after a short wait, which loads whichever version is current.
 */
export async function reloadIntoUpdate(
  reload: () => void,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  reloadRequested = true;
  if (controlledByNewWorker || !applyUpdate) {
    reload();
    return;
  }
  await applyUpdate();
  await wait(TAKE_OVER_TIMEOUT_MS);
  reload();
}

/** For tests: back to a page that has heard of no update. */
export function resetUpdateStateForTests(): void {
  waiting = false;
  dismissed = false;
  applyUpdate = null;
  reloadRequested = false;
  controlledByNewWorker = false;
  listeners.clear();
}
