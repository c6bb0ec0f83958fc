import { LoaderCircle } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/web/lib/utils";

/** The spinning glyph alone, for places that announce busy-ness themselves (a busy button). */
export function SpinnerIcon({ className, ...props }: ComponentProps<typeof LoaderCircle>) {
  return (
    <LoaderCircle
      aria-hidden="true"
      className={cn("size-4 shrink-0 animate-spin", className)}
      {...props}
    />
  );
}

interface SpinnerProps extends ComponentProps<"span"> {
  /** What is loading, read by screen readers (and shown when `showLabel`). */
  label?: string;
  showLabel?: boolean;
  iconClassName?: string;
}

export function Spinner({
  label = "Loading...",
  showLabel = false,
  className,
  iconClassName,
  ...props
}: SpinnerProps) {
  return (
    <span
      role="status"
      className={cn("inline-flex items-center gap-2 text-muted-foreground", className)}
      {...props}
    >
      <SpinnerIcon className={cn("size-5 text-primary", iconClassName)} />
      <span className={showLabel ? undefined : "sr-only"}>{label}</span>
    </span>
  );
}

/** Fills the screen while the app decides who is signed in (docs/product/screens.md: the text 'Loading...'). */
export function FullScreenSpinner({ label = "Loading..." }: { label?: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center p-6">
      <Spinner
        label={label}
        showLabel
        className="flex-col gap-3 text-base"
        iconClassName="size-8"
      />
    </div>
  );
}

/** In the content area while a page's code or data loads (the header and tabs stay put). */
export function PageSpinner({ label = "Loading..." }: { label?: string }) {
  return (
    <div className="flex min-h-[40dvh] items-center justify-center p-6">
      <Spinner label={label} showLabel className="flex-col gap-3" iconClassName="size-7" />
    </div>
  );
}
