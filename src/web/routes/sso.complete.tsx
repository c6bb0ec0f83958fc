import { createFileRoute } from "@tanstack/react-router";
import { SsoCompletePage } from "@/web/components/auth/sso-finish-page";

// Issue 33: where the server's OpenID callback sends a sign-in that needs one more step.
export const Route = createFileRoute("/sso/complete")({
  head: () => ({ meta: [{ title: "Finish creating your account · PRITE Study" }] }),
  component: SsoCompletePage,
});
