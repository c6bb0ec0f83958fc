import type { ComponentProps } from "react";
import { cn } from "@/web/lib/utils";

/** Shared by text fields: 16 px text so iOS does not zoom into the field on focus. */
export const fieldClasses = cn(
  "w-full rounded-md border border-input bg-card px-3 text-base text-foreground shadow-xs",
  "placeholder:text-muted-foreground transition-colors outline-none",
  "focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
  "disabled:cursor-not-allowed disabled:opacity-60",
  "aria-invalid:border-destructive aria-invalid:ring-destructive/30",
);

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return (
    <input
      type={type}
      className={cn(fieldClasses, "h-11 py-2 read-only:bg-muted", className)}
      {...props}
    />
  );
}
