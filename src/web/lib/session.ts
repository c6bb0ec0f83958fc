import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useRouteContext, useRouter, type AnyRouter } from "@tanstack/react-router";
import { useCallback, useState } from "react";
import { eraseOfflineData, OfflineStore, rememberedUser, rememberUser } from "@/web/offline/store";
import type { sendQueued } from "@/web/offline/sync";
import { takeEarlySessionCheck } from "./early-data";
import {
  errorMessage,
  httpStatusOf,
  isUnauthorized,
  trpc,
  type SessionUser,
  type TrpcUtils,
} from "./trpc";

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
  // Offline the app opens as the last signed-in user, from the offline copy (issue 18); the sign-in
  // pages (`fresh`) always ask the server.
  if (!opts.fresh && !navigator.onLine) return rememberedUser();
  try {
    const user = opts.fresh
      ? await trpcUtils.auth.me.fetch(undefined, { staleTime: 0 })
      : await (takeEarlySessionCheck() ?? trpcUtils.auth.me.ensureData());
    await adoptOfflineUser(user);
    return user;
  } catch (error) {
    if (isUnauthorized(error)) return null;
    // No answer at all (the server or the network is down): the same as offline.
    if (!opts.fresh && httpStatusOf(error) === undefined) {
      const remembered = rememberedUser();
      if (remembered) return remembered;
    }
    throw error;
  }
}

/**
 * The device now belongs to `user`. Another user's offline copy is erased, after asking when it holds
 * answers that were never synced (they cannot be sent without that user's session).
 */
async function adoptOfflineUser(user: SessionUser): Promise<void> {
  const previous = rememberedUser();
  if (previous && previous._id !== user._id) {
    try {
      const store = await OfflineStore.open(previous._id);
      await (await import("@/web/offline/sync")).queueLeftoverAnswer(store);
      const unsynced = await store.queueSize();
      store.close();
      const discard =
        unsynced === 0 ||
        window.confirm(
          `${unsynced} ${unsynced === 1 ? "answer" : "answers"} that ${previous.username} studied offline on this device ${unsynced === 1 ? "was" : "were"} never synced. Delete ${unsynced === 1 ? "it" : "them"}? (Cancel keeps ${unsynced === 1 ? "it" : "them"} until ${previous.username} signs in here again.)`,
        );
      if (discard) await eraseOfflineData(previous._id);
    } catch {
      // IndexedDB unavailable: there is no copy to erase.
    }
  }
  rememberUser(user);
}

/**
 * Before signing out (issue 18 item 5): the offline queue is synced if it can be, then the copy and
 * the queue are erased. Answers that could not be synced are discarded only if the user agrees;
 * false means they chose to stay signed in.
 */
export async function releaseOfflineData(
  userId: string,
  send: Parameters<typeof sendQueued>[1],
): Promise<boolean> {
  let store: OfflineStore;
  try {
    store = await OfflineStore.open(userId);
  } catch {
    return true;
  }
  try {
    // The offline scheduler is not in the first load: it is asked for here, when signing out.
    const { queueLeftoverAnswer, sendQueued } = await import("@/web/offline/sync");
    if (navigator.onLine) {
      try {
        await sendQueued(store, send);
      } catch {
        // What could not be sent is counted below.
      }
    } else {
      await queueLeftoverAnswer(store);
    }
    const unsynced = await store.queueSize();
    if (
      unsynced > 0 &&
      !window.confirm(
        `${unsynced} ${unsynced === 1 ? "answer" : "answers"} studied offline could not be synced and will be lost if you sign out now. Sign out anyway?`,
      )
    ) {
      return false;
    }
  } finally {
    store.close();
  }
  await eraseOfflineData(userId);
  return true;
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
  const user = useSessionUser();
  const utils = trpc.useUtils();
  const logout = trpc.auth.logout.useMutation();
  const [error, setError] = useState<string | null>(null);

  const logOut = async () => {
    setError(null);
    // The server must end the session: signing out offline would leave it open on this computer.
    if (!navigator.onLine) {
      setError("Signing out needs a connection.");
      return;
    }
    const released = await releaseOfflineData(user._id, (input) =>
      utils.client.study.sync.mutate(input),
    );
    if (!released) return;
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
