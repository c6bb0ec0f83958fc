import { trpc } from "@/web/lib/trpc";
import type { NavBadges } from "./nav-tabs";

/**
 * The navigation's counts (issue 32): the resident's open assignments not yet done, on the program's
 * entry. Asked once a minute at most; a user outside a program gets an empty list and no badge.
 */
export function useNavBadges(): NavBadges {
  const open = trpc.assignments.open.useQuery(undefined, { staleTime: 60_000 });
  const count = open.data?.length ?? 0;
  return {
    "/program": {
      count,
      label: `${count} open assignment${count === 1 ? "" : "s"}`,
    },
  };
}
