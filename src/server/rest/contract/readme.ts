import type { Access, RestCall } from "./call";
import { namedShapes, render, type Shape } from "./shape";

/** A table cell: GitHub's tables need `|` escaped, in code spans too. */
const cell = (text: string) => text.replaceAll("|", "\\|");

const ACCESS_TEXT: Record<Access, string> = { public: "anyone", user: "signed in", admin: "admin" };

/** The README's REST section, between its markers (markdown before prettier's table padding). */
export function renderRestReadme(calls: readonly RestCall[]): string {
  const row = (c: RestCall) =>
    `| \`${c.method} ${c.path.replace(/:(\w+)/g, "{$1}")}\` | ${ACCESS_TEXT[c.access]} | ${cell(c.request)} | ${c.status} \`${cell(render(c.response))}\` |`;
  const table = (rows: readonly RestCall[]) => [
    "| call | who | request | answer |",
    "| --- | --- | --- | --- |",
    ...rows.map(row),
  ];
  const found = new Map<string, Shape>();
  for (const c of calls) namedShapes(c.response, found);
  const objects = [...found.values()].map((s) => `- \`${render(s)}\`: \`${render(s, true)}\``);
  return [
    "Every call in docs/product/rest-api.md, with the fields its client reads (the server may send more). The token goes in",
    "`x-auth-token` (or `Authorization: Bearer`). A failure answers its HTTP status with `{message}`, plus",
    "`success: false` where the answer has `success` and `error` on the explanation and AI paths; 401 means",
    "the token is missing, expired or revoked.",
    "",
    ...table(calls.filter((c) => c.spec)),
    "",
    "Also served, for REST clients and scripts:",
    "",
    ...table(calls.filter((c) => !c.spec)),
    "",
    "Objects:",
    "",
    ...objects,
  ].join("\n");
}

export const README_BEGIN =
  "<!-- rest-contract:begin (generated: npx tsx scripts/rest-readme.ts) -->";
export const README_END = "<!-- rest-contract:end -->";
