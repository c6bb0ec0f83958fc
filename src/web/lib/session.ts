import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useRouteContext, useRouter, type AnyRouter } from "@tanstack/react-router";
import { useCallback, useState } from "react";
import { errorMessage, isUnauthorized, trpc, type SessionUser, type TrpcUtils } from "./trpc";

/** Pages a signed-out visitor may see; a 401 never bounces away from these. */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/login", "/register"]);

/**
 * The signed-in user, or null when the server says nobody is. `fresh` asks the server even when a
 * user is cached: the sign-in pages use it so a user who just logged out is not bounced back in.
 */
export async function loadSessionUser(
  trpcUtils: TrpcUtils,
  opts: { fresh?: boolean } = {},
): Promise<SessionUser | null> {
  try {
    return opts.fresh
      ? await trpcUtils.auth.me.fetch(undefined, { staleTime: 0 })
      : await trpcUtils.auth.me.ensureData();
  } catch (error) {
    if (isUnauthorized(error)) return null;
    throw error;
  }
}

/**
 * The user of the signed-in layout. The query keeps it current (profile edits invalidate it);
 * the layout's route context holds the copy loaded before the page rendered, so it is never missing.
 */
export function useSessionUser(): SessionUser {
  const { user } = useRouteContext({ from: "/_app" });
  const { data } = trpc.auth.me.useQuery(undefined);
  return data ?? user;
}

/**
 * Leaves the signed-in part of the app: to /login first, then the cache is dropped, so no
 * signed-in page is still mounted to refetch what was cleared and the next user starts clean.
 */
export async function leaveSession(router: AnyRouter, queryClient: QueryClient): Promise<void> {
  await router.navigate({ to: "/login", replace: true });
  queryClient.clear();
}

export function useLeaveSession(): () => Promise<void> {
  const router = useRouter();
  const queryClient = useQueryClient();
  return useCallback(() => leaveSession(router, queryClient), [router, queryClient]);
}

export function useLogOut() {
  const leave = useLeaveSession();
  const logout = trpc.auth.logout.useMutation();
  const [error, setError] = useState<string | null>(null);

  const logOut = async () => {
    setError(null);
    try {
      await logout.mutateAsync();
    } catch (err) {
      // An expired session is already logged out; anything else leaves the cookie in place.
      if (!isUnauthorized(err)) {
        setError(errorMessage(err, "Logout failed"));
        return;
      }
    }
    await leave();
  };

  return { logOut, isPending: logout.isPending, error, clearError: () => setError(null) };
}
