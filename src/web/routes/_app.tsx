import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppShell } from "@/web/components/layout/app-shell";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { prefetchFirstPageData } from "@/web/lib/early-data";
import { returnToFor } from "@/web/lib/return-to";
import { loadSessionUser } from "@/web/lib/session";

/** Pathless layout for every signed-in page; children read the user from `context.user`. */
export const Route = createFileRoute("/_app")({
  beforeLoad: async ({ context, location }) => {
    // In the same tRPC batch as the session check below (issue 20).
    prefetchFirstPageData(location.pathname, context.trpc);
    const user = await loadSessionUser(context.trpc);
    if (!user) {
      // A join link opened while signed out comes back after Sign In (docs/decisions/349).
      const back = returnToFor(location.pathname);
      throw redirect({ to: "/login", search: back ? { redirect: back } : {}, replace: true });
    }
    return { user };
  },
  // docs/product/screens.md: 'Loading...' while the sign-in state loads, at once and for no longer than needed;
  // it looks like index.html's boot screen, so the hand-over is seamless.
  pendingMs: 0,
  pendingMinMs: 0,
  pendingComponent: () => <FullScreenSpinner />,
  component: AppShell,
});
