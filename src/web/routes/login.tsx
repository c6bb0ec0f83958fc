import { createFileRoute, redirect } from "@tanstack/react-router";
import { SignInPage } from "@/web/components/auth/sign-in-page";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { safeReturnTo } from "@/web/lib/return-to";
import { loadSessionUser } from "@/web/lib/session";

export const Route = createFileRoute("/login")({
  // Asks the server each time, so a user who just logged out is not sent back in from cache.
  // If the server cannot be reached the form still shows; signing in will say what went wrong.
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const redirect = safeReturnTo(search.redirect);
    return redirect ? { redirect } : {};
  },
  beforeLoad: async ({ context, search }) => {
    const user = await loadSessionUser(context.trpc, { fresh: true }).catch(() => null);
    if (user) throw redirect({ href: search.redirect ?? "/", replace: true });
  },
  pendingMs: 0,
  pendingMinMs: 0,
  pendingComponent: () => <FullScreenSpinner />,
  head: () => ({ meta: [{ title: "Sign In · PRITE Study" }] }),
  component: SignInPage,
});
