import { Link } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { EmailField } from "./account-fields";
import { AuthLayout } from "./auth-layout";

export const LINK_CLASS =
  "inline-flex min-h-11 items-center rounded-sm px-1 font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring";

/** "Forgot password?": the account's email; the server mails a link when it knows it (issue 33). */
export function ForgotPasswordPage() {
  const forgot = trpc.auth.forgotPassword.useMutation();
  const { show, clear, banner } = useBanner({ autoCloseMs: null });
  const [email, setEmail] = useState("");

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!email.trim()) return show("error", "Please enter a valid email address");
    try {
      const result = await forgot.mutateAsync({ email: email.trim() });
      show("success", result.message);
    } catch (error) {
      show("error", errorMessage(error, "Failed to send the reset link"));
    }
  };

  return (
    <AuthLayout
      intro={<h2 className="text-xl font-semibold">Reset your password</h2>}
      footer={
        <Link to="/login" className={LINK_CLASS}>
          Back to Sign In
        </Link>
      }
    >
      <form
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-4"
        aria-label="Forgot password"
      >
        {banner}
        <p className="text-sm text-muted-foreground">
          Enter the email address of your account and we will send you a link to choose a new
          password. No email? Your program&apos;s administrator can give you a reset link.
        </p>
        <EmailField id="forgot-email" required value={email} onValueChange={setEmail} />
        <Button type="submit" size="lg" busy={forgot.isPending} className="w-full">
          {forgot.isPending ? "Sending..." : "Send Reset Link"}
        </Button>
      </form>
    </AuthLayout>
  );
}
