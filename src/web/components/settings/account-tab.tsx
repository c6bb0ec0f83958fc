import { PasswordField } from "@/web/components/auth/account-fields";
import { PasswordStrengthMeter } from "@/web/components/auth/password-strength";
import { KeyRound, LogOut, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { LIMITS } from "@/core/constants";
import { Alert, useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { useLeaveSession, useLogOut, useSessionUser } from "@/web/lib/session";
import { eraseOfflineData } from "@/web/offline/store";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { SessionsCard } from "./sessions-card";
import { useConfirmedAction } from "./use-confirmed-action";

export const DELETE_CONFIRMATION =
  "Are you sure you want to delete your account? This cannot be undone and all your data will be permanently removed.";

const EMPTY_PASSWORDS = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** Current password required; every other device is signed out (auth.changePassword). */
function ChangePasswordForm() {
  const change = trpc.auth.changePassword.useMutation();
  const { show, clear, banner } = useBanner();
  const [fields, setFields] = useState(EMPTY_PASSWORDS);
  const set = (key: keyof typeof fields) => (value: string) =>
    setFields((previous) => ({ ...previous, [key]: value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!fields.currentPassword) return show("error", "Please enter your current password");
    if (fields.newPassword.length < LIMITS.PASSWORD_MIN) {
      return show("error", `Password must be at least ${LIMITS.PASSWORD_MIN} characters`);
    }
    if (fields.newPassword !== fields.confirmPassword) {
      return show("error", "Passwords do not match");
    }
    try {
      const result = await change.mutateAsync(fields);
      setFields(EMPTY_PASSWORDS);
      show("success", result.message || "Password changed successfully");
    } catch (error) {
      show("error", errorMessage(error, "Failed to change password"));
    }
  };

  const field = (
    key: keyof typeof fields,
    label: string,
    autoComplete: "current-password" | "new-password",
  ) => (
    <PasswordField
      id={`password-${key}`}
      label={label}
      name={key}
      autoComplete={autoComplete}
      value={fields[key]}
      onValueChange={set(key)}
    />
  );

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Change Password">
      {banner}
      {field("currentPassword", "Current Password", "current-password")}
      {field("newPassword", "New Password", "new-password")}
      <PasswordStrengthMeter password={fields.newPassword} />
      {field("confirmPassword", "Confirm New Password", "new-password")}
      <p className="text-xs text-muted-foreground">
        At least {LIMITS.PASSWORD_MIN} characters. Your other devices will be signed out.
      </p>
      <Button type="submit" variant="outline" busy={change.isPending} className="w-full sm:w-fit">
        {!change.isPending && <KeyRound aria-hidden="true" />}
        {change.isPending ? "Changing..." : "Change Password"}
      </Button>
    </form>
  );
}

/** Settings › Account (docs/product/screens.md, states.md, validation.md and errors.md): Log Out, Change Password, Delete Account. */
export function AccountTab() {
  const { logOut, isPending, error, clearError } = useLogOut();
  const leave = useLeaveSession();
  const user = useSessionUser();
  const remove = trpc.users.deleteAccount.useMutation();
  const { show, banner } = useBanner();
  const deletion = useConfirmedAction({
    confirmation: {
      title: "Delete Account",
      description: DELETE_CONFIRMATION,
      confirmLabel: "Delete Account",
      destructive: true,
    },
    // Nothing of a deleted account stays on the device (its offline copy and queue included).
    run: async () => {
      const done = await remove.mutateAsync();
      await eraseOfflineData(user._id).catch(() => {});
      return done;
    },
    successMessage: "Account deleted successfully",
    failureMessage: "Failed to delete account",
    // docs/product/states.md: logged out and sent to sign in 1.5 s later.
    afterSuccess: () => void leave(),
    show,
  });

  return (
    <div className="flex flex-col gap-4">
      {deletion.dialog}
      <Card>
        <CardHeader>
          <CardTitle>Account</CardTitle>
          <CardDescription>Sign out of PRITE Study on this device.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {error && (
            <Alert type="error" onClose={clearError}>
              {error}
            </Alert>
          )}
          <Button
            variant="outline"
            onClick={logOut}
            busy={isPending}
            disabled={deletion.done}
            className="w-full sm:w-fit"
          >
            {!isPending && <LogOut aria-hidden="true" />}
            Log Out
          </Button>
        </CardContent>
      </Card>
      <SessionsCard />
      <Card>
        <CardHeader>
          <CardTitle>Change Password</CardTitle>
        </CardHeader>
        <CardContent>
          <ChangePasswordForm />
        </CardContent>
      </Card>
      <Card className="border-destructive/40">
        <CardHeader>
          <CardTitle>Delete Account</CardTitle>
          <CardDescription>
            Deleting your account is permanent. Your questions, study progress, PRITE scores and
            answer keys are removed and cannot be recovered.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {banner}
          <Button
            variant="destructive"
            busy={deletion.running}
            disabled={deletion.done}
            onClick={() => void deletion.trigger()}
            className="w-full sm:w-fit"
          >
            {!deletion.running && <Trash2 aria-hidden="true" />}
            Delete Account
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
