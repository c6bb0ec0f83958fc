import { useState } from "react";
import { isSsoOutcome, ssoMessage } from "@/core/sso";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { trpc } from "@/web/lib/trpc";

/** Sign In's choices from the server (issue 33); passwords until it has answered. */
export function useSignInOptions() {
  const { data } = trpc.auth.signInOptions.useQuery(undefined, {
    staleTime: Infinity,
    retry: false,
  });
  return data ?? { passwordSignIn: true, ssoName: null };
}

/**
 * "Sign in with {name}" when the server has an institution's account set up, and why the last try
 * came back to Sign In (`?sso=…`). A plain link, not a form: the provider is another origin, which
 * the Content-Security-Policy's form-action would refuse as a form's redirect target.
 */
export function SsoSignIn() {
  const { passwordSignIn, ssoName } = useSignInOptions();
  const [outcome] = useState(() => new URLSearchParams(window.location.search).get("sso"));
  if (!ssoName) return null;
  return (
    <div className={passwordSignIn ? "mb-4 flex flex-col gap-4" : "flex flex-col gap-4"}>
      {isSsoOutcome(outcome) && (
        <Alert type="error" autoCloseMs={null}>
          {ssoMessage(outcome, ssoName)}
        </Alert>
      )}
      <Button asChild size="lg" variant={passwordSignIn ? "outline" : "default"} className="w-full">
        <a href="/api/auth/oidc/start">Sign in with {ssoName}</a>
      </Button>
      {passwordSignIn && (
        <p className="flex items-center gap-3 text-xs text-muted-foreground uppercase before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
          or
        </p>
      )}
    </div>
  );
}
