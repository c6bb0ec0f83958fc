import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, HeadContent, Outlet } from "@tanstack/react-router";
import type { TrpcUtils } from "@/web/lib/trpc";
import { UpdatePrompt } from "@/web/pwa/update-prompt";

/** What every route's beforeLoad and loader can reach (docs/ARCHITECTURE.md). */
export interface RouterContext {
  trpc: TrpcUtils;
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  head: () => ({ meta: [{ title: "PRITE Study" }] }),
  component: RootLayout,
});

function RootLayout() {
  return (
    <>
      <HeadContent />
      <UpdatePrompt />
      <Outlet />
    </>
  );
}
