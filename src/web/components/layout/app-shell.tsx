import { Outlet } from "@tanstack/react-router";
import { useEffect } from "react";
import { Alert } from "@/web/components/ui/alert";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { useLeaveSession, useLogOut, useSessionUser } from "@/web/lib/session";
import { isUnauthorized, trpc } from "@/web/lib/trpc";
import { OfflineProvider, useOffline } from "@/web/offline/offline-provider";
import { SyncBanner } from "@/web/offline/sync-banner";
import { AppHeader } from "./app-header";
import { BottomNav } from "./bottom-nav";
import { useNavBadges } from "./nav-badges";
import { FirstPageGate } from "./first-page-gate";
import { OfflineBanner } from "./offline-banner";

/** The signed-in frame in docs/product/screens.md: header, the page, and the bottom tabs. */
export function AppShell() {
  const user = useSessionUser();
  return (
    <OfflineProvider userId={user._id}>
      {/* The frame renders with the first page, in the gate's sliced retry (first-page-gate.tsx). */}
      <FirstPageGate fallback={<FullScreenSpinner />}>
        <Frame />
      </FirstPageGate>
    </OfflineProvider>
  );
}

function Frame() {
  const user = useSessionUser();
  const { logOut, isPending, error, clearError } = useLogOut();
  const leave = useLeaveSession();
  const { waiting } = useOffline();
  const badges = useNavBadges();

  // The session query answers a 401 itself (the global handler leaves it alone): when a refetch
  // (say, on returning to the tab the next morning) finds the session expired, go to sign in.
  const session = trpc.auth.me.useQuery(undefined);
  const expired = isUnauthorized(session.error);
  useEffect(() => {
    if (expired) void leave();
  }, [expired, leave]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-4 py-3 font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <AppHeader username={user.username} onLogOut={logOut} loggingOut={isPending} />
      <OfflineBanner waiting={waiting} />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-3xl flex-1 px-4 pt-5 pb-[calc(6rem+env(safe-area-inset-bottom))] outline-none"
      >
        {error && (
          <Alert type="error" onClose={clearError} className="mb-4">
            {error}
          </Alert>
        )}
        <SyncBanner />
        <FirstPageGate>
          <Outlet />
        </FirstPageGate>
      </main>
      <BottomNav isAdmin={user.isAdmin} badges={badges} />
    </div>
  );
}
