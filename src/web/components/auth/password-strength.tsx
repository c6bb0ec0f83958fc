import { useEffect, useState } from "react";
import type { PasswordStrength } from "@/web/lib/password-checker";
import { cn } from "@/web/lib/utils";

const LABELS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"] as const;
const COLOURS = [
  "bg-destructive",
  "bg-destructive",
  "bg-amber-500",
  "bg-emerald-500",
  "bg-emerald-600",
] as const;

type Checker = (password: string) => PasswordStrength;
let loading: Promise<Checker> | null = null;

/**
 * Strength of a new password as it is typed (issue 24): the checker and its word lists load on the
 * first keystroke, never with the page.
 */
export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  const [check, setCheck] = useState<Checker | null>(null);
  useEffect(() => {
    if (!password || check) return;
    let live = true;
    loading ??= import("@/web/lib/password-checker").then((m) => m.checkPassword);
    void loading.then((fn) => {
      if (live) setCheck(() => fn);
    });
    return () => {
      live = false;
    };
  }, [password, check]);
  if (!password || !check) return null;
  const { score, common } = check(password);
  return (
    <div id={id} className="flex flex-col gap-1" aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <span
            key={i}
            className={cn(
              "h-1 flex-1 rounded-full",
              i < Math.max(1, score) ? COLOURS[score] : "bg-muted",
            )}
          />
        ))}
      </div>
      <p className="text-xs text-muted-foreground">
        {common
          ? "This password is on a list of common passwords: choose another."
          : `Strength: ${LABELS[score]}`}
      </p>
    </div>
  );
}
