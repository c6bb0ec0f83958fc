import { useState, type FormEvent, type ReactNode } from "react";
import { PGY_LEVELS, SPECIALTIES, type PgyLevel, type Specialty } from "@/core/constants";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect } from "@/web/components/ui/select";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc } from "@/web/lib/trpc";

const SELECTS = [
  {
    key: "pgyLevel",
    label: "PGY Level",
    placeholder: "Select PGY Level",
    options: PGY_LEVELS.map((l) => ({ value: l.value, label: l.label })),
  },
  {
    key: "specialty",
    label: "Specialty",
    placeholder: "Select Specialty",
    options: SPECIALTIES.map((s) => ({ value: s, label: s })),
  },
] as const;

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** Settings › Profile (SPEC §2): everything but the username can change. */
export function ProfileTab() {
  const user = useSessionUser();
  const utils = trpc.useUtils();
  const save = trpc.users.updateProfile.useMutation();
  const { show, clear, banner } = useBanner();
  const [fields, setFields] = useState(() => ({
    email: user.email,
    displayName: user.displayName,
    pgyLevel: user.pgyLevel,
    specialty: user.specialty,
    institution: user.institution,
  }));
  const set = (key: keyof typeof fields) => (value: string) =>
    setFields((previous) => ({ ...previous, [key]: value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    try {
      const result = await save.mutateAsync({
        ...fields,
        // The selects only offer the server's own values.
        pgyLevel: fields.pgyLevel as PgyLevel | "",
        specialty: fields.specialty as Specialty | "",
      });
      // The session's user is the one the whole app reads (header, rankings' PGY level …).
      utils.auth.me.setData(undefined, result.user);
      show("success", result.message || "Profile updated successfully");
    } catch (error) {
      show("error", errorMessage(error, "Failed to update profile"));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Profile">
          {banner}
          <Field id="profile-username" label="Username">
            <Input
              id="profile-username"
              name="username"
              value={user.username}
              readOnly
              aria-describedby="profile-username-note"
            />
            <p id="profile-username-note" className="text-xs text-muted-foreground">
              Username cannot be changed
            </p>
          </Field>
          <Field id="profile-email" label="Email">
            <Input
              id="profile-email"
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              value={fields.email}
              onChange={(event) => set("email")(event.target.value)}
            />
          </Field>
          <Field id="profile-display-name" label="Display Name">
            <Input
              id="profile-display-name"
              name="displayName"
              autoComplete="name"
              placeholder="Enter your display name"
              value={fields.displayName}
              onChange={(event) => set("displayName")(event.target.value)}
            />
          </Field>
          {SELECTS.map(({ key, label, options, placeholder }) => (
            <Field key={key} id={`profile-${key}`} label={label}>
              <OptionSelect
                id={`profile-${key}`}
                name={key}
                value={fields[key]}
                onValueChange={set(key)}
                options={options}
                placeholder={placeholder}
                emptyOption={placeholder}
              />
            </Field>
          ))}
          <Field id="profile-institution" label="Institution">
            <Input
              id="profile-institution"
              name="institution"
              autoComplete="organization"
              placeholder="Your training institution"
              value={fields.institution}
              onChange={(event) => set("institution")(event.target.value)}
            />
          </Field>
          <Button type="submit" busy={save.isPending} className="w-full sm:w-fit">
            {save.isPending ? "Saving..." : "Save Profile"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
