import type { RouterOutputs } from "@/web/lib/trpc";

export type AdminUser = RouterOutputs["admin"]["users"][number];

/** The PGY filter's "no filter" value ('All PGY Levels'). */
export const ALL_LEVELS = "all";

/** Search by username or email (case-insensitive), then the PGY filter. */
export function filterUsers(users: readonly AdminUser[], search: string, level: string) {
  const needle = search.trim().toLowerCase();
  return users.filter(
    (u) =>
      (level === ALL_LEVELS || u.pgyLevel === level) &&
      (!needle ||
        u.username.toLowerCase().includes(needle) ||
        u.email.toLowerCase().includes(needle)),
  );
}
