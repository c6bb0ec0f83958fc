import { trpc } from "@/web/lib/trpc";
import type { NavBadges } from "./nav-tabs";

/**
 * The navigation's counts (issue 32): the resident's open assignments not yet done, on the program's
 * entry; open reports to handle on the Reports entry (issue 36). Asked once a minute at most; a user outside a program gets an empty list and no badge.
 */
export function useNavBadges(): NavBadges {
  const open = trpc.assignments.open.useQuery(undefined, { staleTime: 60_000 });
  const count = open.data?.length ?? 0;
  // Issue 36: open reports on the questions the user handles.
  const reports = trpc.reports.openCount.useQuery(undefined, { staleTime: 60_000 });
  const toHandle = reports.data?.open ?? 0;
  return {
    "/program": {
      count,
      label: `${count} open assignment${count === 1 ? "" : "s"}`,
    },
    "/reports": {
      count: toHandle,
      label: `${toHandle} open report${toHandle === 1 ? "" : "s"} to handle`,
    },
  };
}
