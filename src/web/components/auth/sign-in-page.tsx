import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useRouter, useSearch } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { PasswordField, UsernameField } from "./account-fields";
import { AuthLayout } from "./auth-layout";
import { SsoSignIn, useSignInOptions } from "./sso-sign-in";

export function SignInPage() {
  const navigate = useNavigate();
  const router = useRouter();
  // Where a join link opened while signed out goes on after signing in (already checked: routes/login.tsx).
  const { redirect } = useSearch({ from: "/login" });
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const login = trpc.auth.login.useMutation();
  const { show, clear, banner } = useBanner();
  const { passwordSignIn } = useSignInOptions();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!username.trim() || !password) {
      show("error", "Please enter all fields");
      return;
    }
    try {
      const { user } = await login.mutateAsync({ username: username.trim(), password });
      // Nothing cached from an earlier session may leak into this one.
      queryClient.clear();
      utils.auth.me.setData(undefined, user);
      if (redirect) router.history.replace(redirect);
      else await navigate({ to: "/", replace: true });
    } catch (error) {
      show("error", errorMessage(error, "Login failed"));
    }
  };

  return (
    <AuthLayout
      intro={
        <p className="text-muted-foreground">
          A collaborative flashcard system for PRITE exam preparation
        </p>
      }
      footer={
        <>
          Don&apos;t have an account?{" "}
          <Link
            to="/register"
            search={redirect ? { redirect } : {}}
            className="inline-flex min-h-11 items-center rounded-sm px-1 font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            Register
          </Link>
        </>
      }
    >
      <SsoSignIn />
      {/* noValidate: our own 'Please enter all fields' replaces the browser's bubbles. */}
      <form
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-4"
        aria-label="Sign In"
        hidden={!passwordSignIn}
      >
        {banner}
        <UsernameField id="login-username" required value={username} onValueChange={setUsername} />
        <PasswordField
          id="login-password"
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
        />
        <Link
          to="/forgot-password"
          className="-mt-2 self-end rounded-sm px-1 py-3 text-sm text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          Forgot password?
        </Link>
        <Button type="submit" size="lg" busy={login.isPending} className="mt-2 w-full">
          {login.isPending ? "Signing In..." : "Sign In"}
        </Button>
      </form>
    </AuthLayout>
  );
}
