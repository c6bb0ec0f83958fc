import { cn } from "@/web/lib/utils";
import type { NavBadge } from "./nav-tabs";

/** The count on an entry (issue 32): drawn over its icon; the entry's accessible name says it. */
export function NavCount({ badge, className }: { badge: NavBadge; className?: string }) {
  return (
    <span
      aria-hidden="true"
      data-nav-badge
      className={cn(
        "min-w-4 rounded-full bg-destructive px-1 text-center text-[10px] leading-4 font-semibold text-white",
        className,
      )}
    >
      {badge.count > 99 ? "99+" : badge.count}
    </span>
  );
}
