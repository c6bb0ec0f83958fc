import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { PasswordStrengthMeter } from "@/web/components/auth/password-strength";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect } from "@/web/components/ui/select";
import { PGY_LEVEL_OPTIONS } from "@/web/lib/options";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { AuthLayout } from "./auth-layout";
import { SsoSignIn, useSignInOptions } from "./sso-sign-in";

const MIN_PASSWORD_LENGTH = 8;

interface RegisterFields {
  username: string;
  email: string;
  pgyLevel: string;
  password: string;
  confirmPassword: string;
}

const EMPTY: RegisterFields = {
  username: "",
  email: "",
  pgyLevel: "",
  password: "",
  confirmPassword: "",
};

/** SPEC §5 in the spec's order; null when the form may be sent. */
export function validateRegistration(fields: RegisterFields): string | null {
  if (!fields.username.trim() || !fields.email.trim() || !fields.password || !fields.pgyLevel) {
    return "Please enter all required fields";
  }
  if (fields.password !== fields.confirmPassword) return "Passwords do not match";
  if (fields.password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  return null;
}

export function RegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const register = trpc.auth.register.useMutation();
  const { show, clear, banner } = useBanner();
  const { passwordSignIn } = useSignInOptions();
  const [fields, setFields] = useState<RegisterFields>(EMPTY);

  const set =
    <K extends keyof RegisterFields>(key: K) =>
    (value: RegisterFields[K]) =>
      setFields((previous) => ({ ...previous, [key]: value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    const problem = validateRegistration(fields);
    if (problem) {
      show("error", problem);
      return;
    }
    try {
      const { user } = await register.mutateAsync({
        username: fields.username.trim(),
        email: fields.email.trim(),
        password: fields.password,
        confirmPassword: fields.confirmPassword,
        pgyLevel: fields.pgyLevel,
      });
      queryClient.clear();
      utils.auth.me.setData(undefined, user);
      // A new account is offered the PRITE scores form once (skippable), then goes home.
      await navigate(
        user.scoresOnboardingOffered
          ? { to: "/", replace: true }
          : { to: "/settings", search: { tab: "prite-scores", onboarding: true }, replace: true },
      );
    } catch (error) {
      show("error", errorMessage(error, "Registration failed"));
    }
  };

  return (
    <AuthLayout
      intro={<h2 className="text-lg font-medium text-muted-foreground">Create your account</h2>}
      footer={
        <>
          Already have an account?{" "}
          <Link
            to="/login"
            className="inline-flex min-h-11 items-center rounded-sm px-1 font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            Sign In
          </Link>
        </>
      }
    >
      <SsoSignIn />
      <form
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-4"
        aria-label="Register"
        hidden={!passwordSignIn}
      >
        {banner}
        <div className="flex flex-col gap-2">
          <Label htmlFor="register-username">Username</Label>
          <Input
            id="register-username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            required
            value={fields.username}
            onChange={(event) => set("username")(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="register-email">Email</Label>
          <Input
            id="register-email"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={fields.email}
            onChange={(event) => set("email")(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="register-pgy">PGY Level</Label>
          <OptionSelect
            id="register-pgy"
            name="pgyLevel"
            required
            value={fields.pgyLevel}
            onValueChange={set("pgyLevel")}
            options={PGY_LEVEL_OPTIONS}
            placeholder="Select PGY Level"
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="register-password">Password</Label>
          <Input
            id="register-password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            aria-describedby="register-password-hint"
            value={fields.password}
            onChange={(event) => set("password")(event.target.value)}
          />
          <p id="register-password-hint" className="text-xs text-muted-foreground">
            At least {MIN_PASSWORD_LENGTH} characters.
          </p>
          <PasswordStrengthMeter password={fields.password} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="register-confirm-password">Confirm Password</Label>
          <Input
            id="register-confirm-password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            value={fields.confirmPassword}
            onChange={(event) => set("confirmPassword")(event.target.value)}
          />
        </div>
        <Button type="submit" size="lg" busy={register.isPending} className="mt-2 w-full">
          {register.isPending ? "Registering..." : "Register"}
        </Button>
      </form>
    </AuthLayout>
  );
}
