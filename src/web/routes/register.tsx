import { createFileRoute, redirect } from "@tanstack/react-router";
import { RegisterPage } from "@/web/components/auth/register-page";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { loadSessionUser } from "@/web/lib/session";

export const Route = createFileRoute("/register")({
  beforeLoad: async ({ context }) => {
    const user = await loadSessionUser(context.trpc, { fresh: true }).catch(() => null);
    if (user) throw redirect({ to: "/", replace: true });
  },
  pendingMs: 0,
  pendingMinMs: 0,
  pendingComponent: () => <FullScreenSpinner />,
  head: () => ({ meta: [{ title: "Register · PRITE Study" }] }),
  component: RegisterPage,
});
