/**
 * Registers the service worker. Loaded with a dynamic import once the first screen is up (main.tsx),
 * so neither Workbox's window library nor this file is in the initial JavaScript budget.
 */
import { registerSW } from "virtual:pwa-register";
import { announceUpdate, onNewWorkerControlling } from "./update-state";

/** A tab left open for days still learns of a deploy: the browser itself checks only on navigations. */
const CHECK_EVERY_MS = 60 * 60 * 1000;
/** Coming back to the app checks too, but not more often than this (phones switch apps a lot). */
const CHECK_ON_RETURN_AFTER_MS = 10 * 60 * 1000;

export function registerServiceWorker(): void {
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh: () => announceUpdate(() => updateSW()),
    // Called when the new worker takes control; the default would reload at once, in every tab.
    onNeedReload: () => onNewWorkerControlling(() => window.location.reload()),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      let lastCheck = Date.now();
      const check = () => {
        if (!navigator.onLine || registration.installing) return;
        lastCheck = Date.now();
        // A failed check (server unreachable) is retried at the next occasion; nothing to tell.
        registration.update().catch(() => undefined);
      };
      setInterval(check, CHECK_EVERY_MS);
      document.addEventListener("visibilitychange", () => {
        if (
          document.visibilityState === "visible" &&
          Date.now() - lastCheck > CHECK_ON_RETURN_AFTER_MS
        )
          check();
      });
    },
    onRegisterError: (error: unknown) => {
      // The app works without a worker (only not offline); the console is where a developer looks.
      console.warn("The service worker could not be registered", error);
    },
  });
}
