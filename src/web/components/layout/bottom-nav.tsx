import { Link, useRouterState } from "@tanstack/react-router";
import { Ellipsis } from "lucide-react";
import { lazy, Suspense, useRef, useState, type ReactNode } from "react";
import { cn } from "@/web/lib/utils";
import { NavCount } from "./nav-count";
import { badgeOf, navTabs, type NavBadge, type NavBadges, type Tab } from "./nav-tabs";

// Radix's Dialog is in the `forms` file: loaded when More is first wanted, never with the first screen.
const loadMoreSheet = () => import("./more-sheet");
const MoreSheet = lazy(loadMoreSheet);

const ENTRY_CLASSES = cn(
  "group flex min-h-14 w-full flex-col items-center justify-center gap-0.5 px-0.5 text-[11px] leading-tight font-medium",
  "text-muted-foreground outline-none transition-colors hover:text-foreground",
  "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
  "data-[status=active]:text-primary",
);

/**
 * An entry's icon, count and label. `spoken`, when given, is what a screen reader says instead of the
 * label (the full name, the count's words): read from the content rather than an aria-label, so the
 * name always contains what is shown and nothing tells a speech user another name (axe's
 * label-content-name-mismatch).
 */
function EntryFace({
  icon: Icon,
  label,
  badge,
  spoken,
}: {
  icon: Tab["icon"];
  label: ReactNode;
  badge?: NavBadge | null;
  spoken?: string;
}) {
  return (
    <>
      {spoken && <span className="sr-only">{spoken}</span>}
      <span
        className="relative flex h-7 w-12 max-w-full items-center justify-center rounded-full transition-colors group-data-[status=active]:bg-accent"
        aria-hidden="true"
      >
        <Icon className="size-5" />
        {badge && <NavCount badge={badge} className="absolute -top-1 right-1" />}
      </span>
      <span className="max-w-full truncate" data-nav-label aria-hidden={spoken ? true : undefined}>
        {label}
      </span>
    </>
  );
}

function isCurrent(tab: Tab, pathname: string): boolean {
  const to = String(tab.to);
  return tab.exact ? pathname === to : pathname === to || pathname.startsWith(`${to}/`);
}

/**
 * Fixed to the bottom where the thumb is; clears the home indicator with the safe-area inset. On a
 * phone five entries, the last of them More (a sheet with the other pages); from `sm` up every page
 * has its own entry, as before (issue 31).
 */
export function BottomNav({ isAdmin, badges }: { isAdmin: boolean; badges?: NavBadges }) {
  const tabs = navTabs(isAdmin);
  const more = tabs.filter((tab) => tab.inMore);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The sheet is open on the page it was opened on: going to another page closes it, however.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const [wanted, setWanted] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  const want = () => {
    if (!wanted) setWanted(true);
    void loadMoreSheet().catch(() => {});
  };
  const moreIsCurrent = more.some((tab) => isCurrent(tab, pathname));
  // More carries the counts of the entries it holds on a phone.
  const moreCount = more.reduce((n, tab) => n + (badgeOf(badges, tab)?.count ?? 0), 0);
  const moreBadge = moreCount > 0 ? { count: moreCount, label: `${moreCount} waiting` } : null;

  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t bg-card/95 pb-[env(safe-area-inset-bottom)] backdrop-blur supports-[backdrop-filter]:bg-card/85"
    >
      <ul className="mx-auto flex max-w-3xl">
        {tabs.map((tab) => {
          const { to, label, name, icon, exact, inMore } = tab;
          const badge = badgeOf(badges, tab);
          return (
            <li key={label} className={cn("min-w-0 flex-1", inMore && "hidden sm:block")}>
              <Link
                to={to}
                activeOptions={{ exact: exact ?? false, includeSearch: false }}
                // A short label's full name ("Exam": "Practice Exam") contains what is shown, so it
                // can be the aria-label; a count's words are read from the content instead.
                aria-label={badge ? undefined : name}
                className={ENTRY_CLASSES}
              >
                <EntryFace
                  icon={icon}
                  label={label}
                  badge={badge}
                  spoken={badge ? `${name ?? label}, ${badge.label}` : undefined}
                />
              </Link>
            </li>
          );
        })}
        <li className="min-w-0 flex-1 sm:hidden">
          <button
            ref={moreButton}
            type="button"
            aria-haspopup="dialog"
            aria-expanded={open}
            data-status={moreIsCurrent ? "active" : undefined}
            className={ENTRY_CLASSES}
            onPointerEnter={want}
            onFocus={want}
            onClick={() => {
              want();
              setOpenOn(open ? null : pathname);
            }}
          >
            <EntryFace
              icon={Ellipsis}
              label="More"
              badge={moreBadge}
              spoken={moreBadge ? `More, ${moreBadge.label}` : undefined}
            />
          </button>
        </li>
      </ul>
      {wanted && (
        <Suspense fallback={null}>
          <MoreSheet
            tabs={more}
            badges={badges}
            open={open}
            returnFocusTo={moreButton}
            onOpenChange={(next) => setOpenOn(next ? pathname : null)}
          />
        </Suspense>
      )}
    </nav>
  );
}
