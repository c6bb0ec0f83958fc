import { Link } from "@tanstack/react-router";
import type { RefObject } from "react";
import { Dialog, DialogContent, DialogTitle } from "@/web/components/ui/dialog";
import { NavCount } from "./nav-count";
import { badgeOf, type NavBadges, type Tab } from "./nav-tabs";

interface MoreSheetProps {
  tabs: readonly Tab[];
  /** Counts on entries (issue 32), by the tab's `to`. */
  badges?: NavBadges;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** More itself: the Dialog has no Radix trigger to give the focus back to. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/**
 * The phone's More (issue 31): the pages without an entry of their own in the bottom bar, in a sheet
 * rising from it. Radix's Dialog keeps the focus inside while it is open, closes on Escape or a tap
 * outside, and gives the focus back to More. Loaded lazily by `BottomNav`: keep it out of the layout's
 * `app` file (vite.config.ts).
 */
export default function MoreSheet({
  tabs,
  badges,
  open,
  onOpenChange,
  returnFocusTo,
}: MoreSheetProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        aria-describedby={undefined}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
        className="top-auto bottom-0 left-0 w-full max-w-none translate-x-0 translate-y-0 rounded-t-xl rounded-b-none pb-[calc(1.25rem+env(safe-area-inset-bottom))]"
      >
        <DialogTitle>More</DialogTitle>
        <nav aria-label="More pages">
          <ul className="grid gap-1">
            {tabs.map((tab) => {
              const { to, label, name, icon: Icon, exact } = tab;
              const badge = badgeOf(badges, tab);
              return (
                <li key={label}>
                  <Link
                    to={to}
                    activeOptions={{ exact: exact ?? false, includeSearch: false }}
                    // The page it leads to may be this one: the sheet closes all the same.
                    onClick={() => onOpenChange(false)}
                    className="flex min-h-12 items-center gap-3 rounded-md px-3 font-medium text-foreground outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring data-[status=active]:bg-accent data-[status=active]:text-primary"
                  >
                    <Icon className="size-5" aria-hidden="true" />
                    {/* The count's words are read from the content, not an aria-label, so the name
                        holds what is shown (axe's label-content-name-mismatch). */}
                    {badge ? (
                      <>
                        <span className="sr-only">{`${name ?? label}, ${badge.label}`}</span>
                        <span aria-hidden="true">{name ?? label}</span>
                        <NavCount badge={badge} className="ml-auto" />
                      </>
                    ) : (
                      (name ?? label)
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </DialogContent>
    </Dialog>
  );
}
