import type { ComponentProps } from "react";
import { TextField } from "@/web/components/ui/field";

type TextFieldProps = ComponentProps<typeof TextField>;

/**
 * The fields of an account, the same on every form that asks for them (Sign In, Register, Settings):
 * the browser's password manager and a phone's keyboard (no capitals, corrections or spelling marks in
 * a username or an email) are told what each one is.
 */
const TYPED_AS_IS = { autoCapitalize: "none", spellCheck: false } as const;

export function UsernameField(props: Omit<TextFieldProps, "label">) {
  return (
    <TextField
      label="Username"
      name="username"
      autoComplete="username"
      autoCorrect="off"
      {...TYPED_AS_IS}
      {...props}
    />
  );
}

const EMAIL_INPUT = { inputMode: "email", autoComplete: "email", ...TYPED_AS_IS } as const;

export function EmailField(props: Omit<TextFieldProps, "label">) {
  return <TextField label="Email" name="email" type="email" {...EMAIL_INPUT} {...props} />;
}

/** `autoComplete` says which: "current-password" to sign in, "new-password" to choose one. */
export function PasswordField(
  props: TextFieldProps & { autoComplete: "current-password" | "new-password" },
) {
  return <TextField type="password" {...props} />;
}
