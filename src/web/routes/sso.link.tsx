import { createFileRoute } from "@tanstack/react-router";
import { SsoLinkPage } from "@/web/components/auth/sso-finish-page";

// Issue 33: where the server's OpenID callback sends a sign-in that needs one more step.
export const Route = createFileRoute("/sso/link")({
  head: () => ({ meta: [{ title: "Link your account · PRITE Study" }] }),
  component: SsoLinkPage,
});
