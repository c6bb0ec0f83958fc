import { createFileRoute, redirect } from "@tanstack/react-router";
import { RegisterPage } from "@/web/components/auth/register-page";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { safeReturnTo } from "@/web/lib/return-to";
import { loadSessionUser } from "@/web/lib/session";

export const Route = createFileRoute("/register")({
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
  head: () => ({ meta: [{ title: "Register · PRITE Study" }] }),
  component: RegisterPage,
});
