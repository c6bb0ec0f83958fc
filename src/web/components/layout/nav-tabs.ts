import type { LinkProps } from "@tanstack/react-router";
import {
  BookOpen,
  Camera,
  ClipboardList,
  Flag,
  GraduationCap,
  House,
  Library,
  Settings,
  ShieldCheck,
  Upload,
  type LucideIcon,
} from "lucide-react";

export interface Tab {
  to: LinkProps["to"];
  label: string;
  /** The full name when the tab's label is shortened to fit a phone. */
  name?: string;
  icon: LucideIcon;
  exact?: boolean;
  /**
   * Behind More on a phone (issue 31): five entries are what fits 320 px without cutting a label, so
   * the bar keeps the pages of a study session and More holds the rest. Wider screens show them all.
   */
  inMore?: boolean;
}

/** A count shown on a navigation entry (issue 32), with the words a screen reader says for it. */
export interface NavBadge {
  count: number;
  /** e.g. "2 open assignments". */
  label: string;
}

/** Badges by the tab's `to` ("/program"); an entry without one, or with a count of 0, shows none. */
export type NavBadges = Readonly<Partial<Record<string, NavBadge>>>;

/** The badge a tab shows, if any. */
export function badgeOf(badges: NavBadges | undefined, tab: Pick<Tab, "to">): NavBadge | null {
  const badge = badges?.[String(tab.to)];
  return badge && badge.count > 0 ? badge : null;
}

const TABS: readonly Tab[] = [
  { to: "/", label: "Home", icon: House, exact: true },
  { to: "/study", label: "Study", icon: BookOpen },
  { to: "/exams", label: "Exam", name: "Practice Exam", icon: ClipboardList },
  { to: "/capture", label: "Capture", icon: Camera, inMore: true },
  { to: "/import", label: "Import", icon: Upload, inMore: true },
  { to: "/browse", label: "Browse", icon: Library },
  // Issue 32: the residency program (members, assignments; the dashboard for directors).
  { to: "/program", label: "Program", icon: GraduationCap, inMore: true },
  // Issue 36: reports on questions (the review queue and the user's own reports).
  { to: "/reports", label: "Reports", icon: Flag, inMore: true },
  { to: "/settings", label: "Settings", icon: Settings, inMore: true },
];

const ADMIN_TAB: Tab = { to: "/admin", label: "Admin", icon: ShieldCheck, inMore: true };

/** The main navigation's entries, in their order on a wide screen; Admin only for admins. */
export function navTabs(isAdmin: boolean): readonly Tab[] {
  return isAdmin ? [...TABS, ADMIN_TAB] : TABS;
}
