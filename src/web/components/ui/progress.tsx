import { Progress as ProgressPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "@/web/lib/utils";

interface ProgressProps extends ComponentProps<typeof ProgressPrimitive.Root> {
  indicatorClassName?: string;
}

/** A bar from 0 to `max` (100 by default). Give it an aria-label or aria-labelledby. */
export function Progress({
  className,
  indicatorClassName,
  value,
  max = 100,
  ...props
}: ProgressProps) {
  const fraction = value == null || max <= 0 ? 0 : Math.min(1, Math.max(0, value / max));
  return (
    <ProgressPrimitive.Root
      value={value}
      max={max}
      className={cn("relative h-2.5 w-full overflow-hidden rounded-full bg-muted", className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        className={cn(
          "h-full w-full bg-primary transition-transform duration-300",
          indicatorClassName,
        )}
        style={{ transform: `translateX(-${100 - fraction * 100}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
