import { Link } from "@tanstack/react-router";
import { trpc } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";

interface ProgramPage {
  to: "/program" | "/program/assignments" | "/program/members" | "/program/me";
  label: string;
  /** Who sees the tab: directors, residents, or every member. */
  for: "director" | "resident" | "all";
}

const PAGES: readonly ProgramPage[] = [
  { to: "/program", label: "Dashboard", for: "director" },
  { to: "/program/assignments", label: "Assignments", for: "all" },
  { to: "/program/members", label: "Members", for: "all" },
  { to: "/program/me", label: "What my program sees", for: "resident" },
];

/** The tabs for a role, in their order (exported for tests and the other program pages). */
export function programPages(role: "director" | "resident"): readonly ProgramPage[] {
  return PAGES.filter((p) => p.for === "all" || p.for === role);
}

/**
 * A small tab bar among the program's pages (issue 32): directors see the Dashboard, residents what
 * their program sees of them. Nothing shows for a user in no program.
 */
export function ProgramNav({ className }: { className?: string }) {
  const mine = trpc.programs.mine.useQuery();
  if (!mine.data) return null;
  return (
    <nav aria-label="Program pages" className={cn("mb-4 overflow-x-auto", className)}>
      <ul className="flex min-w-max gap-1 border-b">
        {programPages(mine.data.role).map((page) => (
          <li key={page.to}>
            <Link
              to={page.to}
              activeOptions={{ exact: true }}
              className={cn(
                "-mb-px inline-flex min-h-11 items-center border-b-2 border-transparent px-3 text-sm font-medium",
                "text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring",
                "data-[status=active]:border-primary data-[status=active]:text-foreground",
              )}
            >
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
