import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent, type ReactNode } from "react";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Label } from "@/web/components/ui/label";
import { OptionSelect } from "@/web/components/ui/select";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { PGY_LEVEL_OPTIONS } from "@/web/lib/options";
import { browserTimeZone, trpc, type SessionUser } from "@/web/lib/trpc";
import { PasswordField, UsernameField } from "./account-fields";
import { AuthLayout } from "./auth-layout";

/** What the server's callback left for this screen (issue 33). */
interface PendingSso {
  kind: "create" | "link";
  email: string;
  providerName: string;
  username?: string;
}

async function ssoRequest<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/auth/oidc/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers:
      body === undefined
        ? {}
        : { "content-type": "application/json", "x-time-zone": browserTimeZone() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new Error(answer.message ?? "Something went wrong. Please try again.");
  return answer;
}

const backToSignIn = (
  <Link
    to="/login"
    className="inline-flex min-h-11 items-center rounded-sm px-1 font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
  >
    Back to Sign In
  </Link>
);

/** The pending sign-in, or the server's reason there is none (expired, already used). */
function usePending(kind: PendingSso["kind"]) {
  return useQuery({
    queryKey: ["sso-pending", kind],
    queryFn: () => ssoRequest<PendingSso>("pending"),
    retry: false,
    staleTime: Infinity,
  });
}

/** Signs the new session in on the client and goes where a new or returning account goes. */
function useSignedIn() {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  return async (user: SessionUser, isNew: boolean) => {
    queryClient.clear();
    utils.auth.me.setData(undefined, user);
    // A new account is offered the PRITE scores form once, as after Register.
    await navigate(
      isNew && !user.scoresOnboardingOffered
        ? { to: "/settings", search: { tab: "prite-scores", onboarding: true }, replace: true }
        : { to: "/", replace: true },
    );
  };
}

function SsoFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <AuthLayout
      intro={<h2 className="text-lg font-medium text-muted-foreground">{title}</h2>}
      footer={backToSignIn}
    >
      {children}
    </AuthLayout>
  );
}

function PendingGate({
  kind,
  title,
  children,
}: {
  kind: PendingSso["kind"];
  title: string;
  children: (pending: PendingSso) => ReactNode;
}) {
  const pending = usePending(kind);
  if (pending.isPending) return <FullScreenSpinner />;
  if (pending.isError || pending.data.kind !== kind) {
    return (
      <SsoFrame title={title}>
        <p role="alert" className="text-sm">
          {pending.error?.message ?? "Nothing is waiting here. Please sign in again."}
        </p>
      </SsoFrame>
    );
  }
  return <SsoFrame title={title}>{children(pending.data)}</SsoFrame>;
}

/** The first sign-in with the institution's account: the username (proposed) and the PGY level, once. */
export function SsoCompletePage() {
  return (
    <PendingGate kind="create" title="Finish creating your account">
      {(pending) => <CompleteForm pending={pending} />}
    </PendingGate>
  );
}

function CompleteForm({ pending }: { pending: PendingSso }) {
  const signedIn = useSignedIn();
  const { show, clear, banner } = useBanner();
  const [username, setUsername] = useState(pending.username ?? "");
  const [pgyLevel, setPgyLevel] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!username.trim() || !pgyLevel) {
      show("error", "Please enter all required fields");
      return;
    }
    setBusy(true);
    try {
      const { user } = await ssoRequest<{ user: SessionUser }>("complete", {
        username: username.trim(),
        pgyLevel,
      });
      await signedIn(user, true);
    } catch (error) {
      show("error", (error as Error).message);
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-4"
      aria-label="Finish creating your account"
    >
      {banner}
      <p className="text-sm text-muted-foreground">
        Signed in with {pending.providerName} as {pending.email}.
      </p>
      <UsernameField id="sso-username" required value={username} onValueChange={setUsername} />
      <div className="flex flex-col gap-2">
        <Label htmlFor="sso-pgy">PGY Level</Label>
        <OptionSelect
          id="sso-pgy"
          name="pgyLevel"
          required
          value={pgyLevel}
          onValueChange={setPgyLevel}
          options={PGY_LEVEL_OPTIONS}
          placeholder="Select PGY Level"
        />
      </div>
      <Button type="submit" size="lg" busy={busy} className="mt-2 w-full">
        Continue
      </Button>
    </form>
  );
}

/** An existing account with the provider's verified email: its password confirms the link, once. */
export function SsoLinkPage() {
  return (
    <PendingGate kind="link" title="Link your account">
      {(pending) => <LinkForm pending={pending} />}
    </PendingGate>
  );
}

function LinkForm({ pending }: { pending: PendingSso }) {
  const signedIn = useSignedIn();
  const { show, clear, banner } = useBanner();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!password) {
      show("error", "Please enter your password");
      return;
    }
    setBusy(true);
    try {
      const { user } = await ssoRequest<{ user: SessionUser }>("link", { password });
      await signedIn(user, false);
    } catch (error) {
      show("error", (error as Error).message);
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-4"
      aria-label="Link your account"
    >
      {banner}
      <p className="text-sm">
        An account with the email {pending.email} already exists. Enter its password once to sign in
        with {pending.providerName} from now on.
      </p>
      <PasswordField
        id="sso-link-password"
        label="Password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onValueChange={setPassword}
      />
      <Button type="submit" size="lg" busy={busy} className="mt-2 w-full">
        Link and sign in
      </Button>
    </form>
  );
}
