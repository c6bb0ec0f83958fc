import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { trpc } from "./lib/trpc";
import { cn } from "./lib/utils";
import { inBackgroundAfterLoad } from "./lib/after-paint";
import { startFirstSignedInLoad } from "./lib/early-data";
import { applyPreloadedStylesheets } from "./lib/stylesheets";
import { createAppRouter } from "./router";
import "./styles.css";

const { router, queryClient, trpcClient } = createAppRouter();

// Each page's code is its own chunk, and the router asks for it only once the page's beforeLoad (the
// session check) has answered: asking now overlaps the two round trips instead of queuing them
// (Lighthouse's sign-in LCP waited on both).
const firstRoutes = router.getMatchedRoutes(window.location.pathname)[0];
for (const route of firstRoutes) {
  void router.loadRouteChunk(route)?.catch(() => {
    // The router loads it again when it renders the page, and reports a failure there.
  });
}
// Likewise the session check and the page's first data (lib/early-data.ts, decision 419), for a
// signed-in page.
if (firstRoutes.some((route) => route.id === "/_app")) {
  startFirstSignedInLoad(window.location.pathname, router.options.context.trpc);
}

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

/** Resolves in a task of its own, so what follows does not lengthen the task before it. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// A phone's main thread must not be held for long at a time (Lighthouse's Total Blocking Time, issue
// 20): the bundle's evaluation, applying the stylesheet (its parse), tailwind-merge's one-time set-up
// (its class table, built on the first `cn` call) and the first render each get a task, and the first
// render is a transition, which React renders in short slices.
void (async () => {
  await nextTask();
  const stylesApplied = applyPreloadedStylesheets();
  await nextTask();
  cn("p-0");
  await stylesApplied;
  await nextTask();
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <trpc.Provider client={trpcClient} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </trpc.Provider>
      </StrictMode>,
    ),
  );
})();

// The service worker (issue 18) registers in the background once the first screen is up, from a chunk
// of its own: Workbox's window library stays out of the initial JavaScript, and the first visit's
// precache downloads do not compete with the page's own. Development has no worker, so nothing there
// is served stale.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  inBackgroundAfterLoad(() => {
    import("./pwa/register")
      .then((module) => module.registerServiceWorker())
      .catch((error: unknown) => console.warn("The service worker was not registered", error));
  });
}
