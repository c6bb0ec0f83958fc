import { Link } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { LIMITS } from "@/core/constants";
import { PasswordStrengthMeter } from "@/web/components/auth/password-strength";
import { Alert, useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { PasswordField } from "./account-fields";
import { AuthLayout } from "./auth-layout";
import { LINK_CLASS } from "./forgot-password-page";

const INVALID_LINK = "This reset link is invalid or has expired.";

/** The page a reset link opens: a new password by registration's rules; then Sign In (issue 33). */
export function ResetPasswordPage({ token }: { token: string }) {
  const reset = trpc.auth.resetPassword.useMutation();
  const { show, clear, banner } = useBanner({ autoCloseMs: null });
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!token) return show("error", INVALID_LINK);
    if (!password) return show("error", "Please enter all required fields");
    if (password !== confirmPassword) return show("error", "Passwords do not match");
    if (password.length < LIMITS.PASSWORD_MIN) {
      return show("error", `Password must be at least ${LIMITS.PASSWORD_MIN} characters`);
    }
    try {
      await reset.mutateAsync({ token, password, confirmPassword });
      setDone(true);
    } catch (error) {
      show("error", errorMessage(error, "Failed to reset password"));
    }
  };

  const signIn = (
    <Link to="/login" className={LINK_CLASS}>
      Sign In
    </Link>
  );

  return (
    <AuthLayout
      intro={<h2 className="text-xl font-semibold">Choose a new password</h2>}
      footer={signIn}
    >
      {done ? (
        <div className="flex flex-col gap-4">
          <Alert type="success">
            Your password has been reset and every device was signed out. Sign in with your new
            password.
          </Alert>
          <Button asChild size="lg" className="w-full">
            <Link to="/login">Sign In</Link>
          </Button>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={submit}
          className="flex flex-col gap-4"
          aria-label="Reset password"
        >
          {banner}
          <PasswordField
            id="reset-password"
            label="New Password"
            name="password"
            autoComplete="new-password"
            required
            hint={<>At least {LIMITS.PASSWORD_MIN} characters.</>}
            after={<PasswordStrengthMeter password={password} />}
            value={password}
            onValueChange={setPassword}
          />
          <PasswordField
            id="reset-confirm-password"
            label="Confirm New Password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onValueChange={setConfirmPassword}
          />
          <Button type="submit" size="lg" busy={reset.isPending} className="w-full">
            {reset.isPending ? "Resetting..." : "Reset Password"}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
