import { Link, type LinkProps } from "@tanstack/react-router";
import {
  BookOpen,
  Camera,
  ClipboardList,
  House,
  Library,
  Settings,
  ShieldCheck,
  Upload,
  type LucideIcon,
} from "lucide-react";
import { cn } from "@/web/lib/utils";

interface Tab {
  to: LinkProps["to"];
  label: string;
  /** The full name when the tab's label is shortened to fit a phone. */
  name?: string;
  icon: LucideIcon;
  exact?: boolean;
}

const TABS: readonly Tab[] = [
  { to: "/", label: "Home", icon: House, exact: true },
  { to: "/study", label: "Study", icon: BookOpen },
  { to: "/exams", label: "Exam", name: "Practice Exam", icon: ClipboardList },
  { to: "/capture", label: "Capture", icon: Camera },
  { to: "/import", label: "Import", icon: Upload },
  { to: "/browse", label: "Browse", icon: Library },
  { to: "/settings", label: "Settings", icon: Settings },
];

const ADMIN_TAB: Tab = { to: "/admin", label: "Admin", icon: ShieldCheck };

/** Fixed to the bottom where the thumb is; clears the home indicator with the safe-area inset. */
export function BottomNav({ isAdmin }: { isAdmin: boolean }) {
  const tabs = isAdmin ? [...TABS, ADMIN_TAB] : TABS;
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t bg-card/95 pb-[env(safe-area-inset-bottom)] backdrop-blur supports-[backdrop-filter]:bg-card/85"
    >
      <ul className="mx-auto flex max-w-3xl">
        {tabs.map(({ to, label, name, icon: Icon, exact }) => (
          <li key={label} className="min-w-0 flex-1">
            <Link
              to={to}
              activeOptions={{ exact: exact ?? false, includeSearch: false }}
              aria-label={name}
              className={cn(
                "group flex min-h-14 flex-col items-center justify-center gap-0.5 px-0.5 text-[11px] leading-tight font-medium",
                "text-muted-foreground outline-none transition-colors hover:text-foreground",
                "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
                "data-[status=active]:text-primary",
              )}
            >
              <span
                className="flex h-7 w-12 max-w-full items-center justify-center rounded-full transition-colors group-data-[status=active]:bg-accent"
                aria-hidden="true"
              >
                <Icon className="size-5" />
              </span>
              <span className="max-w-full truncate">{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
