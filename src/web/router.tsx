import { createRouter } from "@tanstack/react-router";
import { NotFound, RouteError } from "./components/layout/route-fallbacks";
import { PageSpinner } from "./components/ui/spinner";
import { leaveSession, PUBLIC_PATHS } from "./lib/session";
import { createQueryClient, createQueryUtils, createTrpcClient } from "./lib/trpc";
import { routeTree } from "./routeTree.gen";

export function createAppRouter() {
  let leaving = false;
  // docs/product/states.md: a 401 from any call means the session is gone; go to sign in (unless already there).
  const onUnauthorized = () => {
    if (leaving || PUBLIC_PATHS.has(window.location.pathname)) return;
    leaving = true;
    void leaveSession(router, queryClient).finally(() => {
      leaving = false;
    });
  };

  const queryClient = createQueryClient({ onUnauthorized });
  const trpcClient = createTrpcClient();
  const router = createRouter({
    routeTree,
    context: { trpc: createQueryUtils(queryClient, trpcClient), queryClient },
    defaultPreload: "intent",
    // React Query owns caching; the router should always ask it rather than keep its own copy.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultPendingComponent: () => <PageSpinner />,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
  });
  return { router, queryClient, trpcClient };
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>["router"];
  }
}
