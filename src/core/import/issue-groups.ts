/** Rows or notes a group names before it only counts the rest. */
export const ISSUE_GROUP_SHOWN = 5;

export interface IssueGroup {
  /**
   * The kind's summary, or for an issue without a kind (or alone of its kind) its message without
   * the 'Row N: ' prefix.
   */
  message: string;
  count: number;
  /** The first rows (or notes) of the kind, in order, at most `ISSUE_GROUP_SHOWN`. */
  first: number[];
}

/**
 * Issues of one kind as one line (issue 31: the ham deck's 590 inferred answers are one line, not
 * 590). Issues carrying a `kind` group by it and read as `summaries[kind]`; the others group by
 * their message once the leading 'Row N: ' or 'Note N: ' is taken off. Groups come in the order of
 * their first issue.
 */
export function groupIssues<T extends { message: string; kind?: string }>(
  issues: readonly T[],
  at: (issue: T) => number,
  summaries: Readonly<Record<string, string>> = {},
): IssueGroup[] {
  const groups = new Map<string, IssueGroup & { bare: string }>();
  for (const issue of issues) {
    const bare = issue.message.replace(/^(?:Row|Note) \d+:\s*/, "");
    const summary = issue.kind === undefined ? undefined : summaries[issue.kind];
    const key = summary === undefined ? `message:${bare}` : `kind:${issue.kind}`;
    const group = groups.get(key) ?? { message: summary ?? bare, count: 0, first: [], bare };
    group.count += 1;
    if (group.first.length < ISSUE_GROUP_SHOWN) group.first.push(at(issue));
    groups.set(key, group);
  }
  return [...groups.values()].map(({ bare, ...group }) =>
    group.count === 1 ? { ...group, message: bare } : group,
  );
}

/**
 * A group as one line: '590 notes: Answer inferred … (notes 2, 3, 4, 5, 6, …)'; a group of one as
 * its issue: 'note 7: The answer is empty: …'.
 */
export function issueGroupLine(group: IssueGroup, unit: "row" | "note"): string {
  if (group.count === 1) return `${unit} ${group.first[0]}: ${group.message}`;
  const units = `${unit}${group.count === 1 ? "" : "s"}`;
  const more = group.count > group.first.length ? ", …" : "";
  return `${group.count} ${units}: ${group.message} (${units} ${group.first.join(", ")}${more})`;
}
