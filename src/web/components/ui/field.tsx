import type { ComponentProps, ReactNode } from "react";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { cn } from "@/web/lib/utils";

/** What a field's control spreads onto itself so that the label, hint and error are bound to it. */
export interface FieldControl {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** Below the hint and the error, not read with the control (the password strength meter). */
  after?: ReactNode;
  className?: string;
}

/**
 * A labelled form field: the label names the control (htmlFor = the control's id), and the hint and the
 * error are read with it (aria-describedby; an error also sets aria-invalid). The control is rendered by
 * `children` with the props of `FieldControl`, so none of this can be forgotten or mistyped.
 */
export function Field(props: FieldProps & { children: (control: FieldControl) => ReactNode }) {
  const { id, hint, error } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const control: FieldControl = { id };
  if (describedBy) control["aria-describedby"] = describedBy;
  if (error) control["aria-invalid"] = true;
  return (
    <div className={cn("flex flex-col gap-2", props.className)}>
      <Label htmlFor={id}>{props.label}</Label>
      {props.children(control)}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs text-destructive">
          {error}
        </p>
      )}
      {props.after}
    </div>
  );
}

/** A labelled text input (`Field` around `Input`): the input's own attributes pass through. */
export function TextField({
  id,
  label,
  hint,
  error,
  after,
  className,
  onValueChange,
  ...input
}: FieldProps &
  Omit<ComponentProps<"input">, "id" | "onChange"> & { onValueChange: (value: string) => void }) {
  return (
    <Field id={id} label={label} hint={hint} error={error} after={after} className={className}>
      {(control) => (
        <Input {...control} {...input} onChange={(event) => onValueChange(event.target.value)} />
      )}
    </Field>
  );
}
