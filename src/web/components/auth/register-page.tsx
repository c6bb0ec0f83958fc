import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useRouter, useSearch } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { PasswordStrengthMeter } from "@/web/components/auth/password-strength";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Field } from "@/web/components/ui/field";
import { OptionSelect } from "@/web/components/ui/select";
import { PGY_LEVEL_OPTIONS } from "@/web/lib/options";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { EmailField, PasswordField, UsernameField } from "./account-fields";
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

/** docs/product/validation.md in the spec's order; null when the form may be sent. */
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
  const router = useRouter();
  const { redirect } = useSearch({ from: "/register" });
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
      if (redirect) {
        router.history.replace(redirect);
        return;
      }
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
            search={redirect ? { redirect } : {}}
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
        <UsernameField
          id="register-username"
          required
          value={fields.username}
          onValueChange={set("username")}
        />
        <EmailField
          id="register-email"
          required
          value={fields.email}
          onValueChange={set("email")}
        />
        <Field id="register-pgy" label="PGY Level">
          {(control) => (
            <OptionSelect
              {...control}
              name="pgyLevel"
              required
              value={fields.pgyLevel}
              onValueChange={set("pgyLevel")}
              options={PGY_LEVEL_OPTIONS}
              placeholder="Select PGY Level"
            />
          )}
        </Field>
        <PasswordField
          id="register-password"
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          hint={<>At least {MIN_PASSWORD_LENGTH} characters.</>}
          after={<PasswordStrengthMeter password={fields.password} />}
          value={fields.password}
          onValueChange={set("password")}
        />
        <PasswordField
          id="register-confirm-password"
          label="Confirm Password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={fields.confirmPassword}
          onValueChange={set("confirmPassword")}
        />
        <Button type="submit" size="lg" busy={register.isPending} className="mt-2 w-full">
          {register.isPending ? "Registering..." : "Register"}
        </Button>
      </form>
    </AuthLayout>
  );
}
