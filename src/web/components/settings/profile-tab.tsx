import { useState, type FormEvent } from "react";
import type { PgyLevel, Specialty } from "@/core/constants";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { EmailField } from "@/web/components/auth/account-fields";
import { Field, TextField } from "@/web/components/ui/field";
import { OptionSelect } from "@/web/components/ui/select";
import { PGY_LEVEL_OPTIONS, SPECIALTY_OPTIONS } from "@/web/lib/options";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc } from "@/web/lib/trpc";

const SELECTS = [
  {
    key: "pgyLevel",
    label: "PGY Level",
    placeholder: "Select PGY Level",
    options: PGY_LEVEL_OPTIONS,
  },
  {
    key: "specialty",
    label: "Specialty",
    placeholder: "Select Specialty",
    options: SPECIALTY_OPTIONS,
  },
] as const;

/** Settings › Profile (docs/product/screens.md): everything but the username can change. */
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
          <Field id="profile-username" label="Username" hint="Username cannot be changed">
            {(control) => <Input {...control} name="username" value={user.username} readOnly />}
          </Field>
          <EmailField id="profile-email" value={fields.email} onValueChange={set("email")} />
          <TextField
            id="profile-display-name"
            label="Display Name"
            name="displayName"
            autoComplete="name"
            placeholder="Enter your display name"
            value={fields.displayName}
            onValueChange={set("displayName")}
          />
          {SELECTS.map(({ key, label, options, placeholder }) => (
            <Field key={key} id={`profile-${key}`} label={label}>
              {(control) => (
                <OptionSelect
                  {...control}
                  name={key}
                  value={fields[key]}
                  onValueChange={set(key)}
                  options={options}
                  placeholder={placeholder}
                  emptyOption={placeholder}
                />
              )}
            </Field>
          ))}
          <TextField
            id="profile-institution"
            label="Institution"
            name="institution"
            autoComplete="organization"
            placeholder="Your training institution"
            value={fields.institution}
            onValueChange={set("institution")}
          />
          <Button type="submit" busy={save.isPending} className="w-full sm:w-fit">
            {save.isPending ? "Saving..." : "Save Profile"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
