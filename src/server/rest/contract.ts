import type { RestCall } from "./contract/call";
import { renderRestReadme as renderReadme } from "./contract/readme";
import { ACCOUNT_CALLS } from "./contract/account-calls";
import { OUR_CALLS } from "./contract/our-calls";
import { PROGRAM_CALLS } from "./contract/program-calls";
import { SPEC_CALLS } from "./contract/spec-calls";
import { ASSIGNMENT_CALLS } from "./contract/assignment-calls";
import { PROGRAM_REPORT_CALLS } from "./contract/program-report-calls";
import { HISTORY_CALLS } from "./contract/history-calls";
import { REPORT_CALLS } from "./contract/report-calls";

/**
 * The REST contract: every path `/api` serves, with what a client sends and what it reads back. One table
 * drives the contract test (`contract.test.ts`, through HTTP on both databases) and the README's REST section
 * (`npx tsx scripts/rest-readme.ts` writes it, the test checks it), so neither can drift from the server.
 * A response shape lists the fields a client reads; the server may send more.
 */
export const REST_CALLS: readonly RestCall[] = [
  ...SPEC_CALLS,
  ...OUR_CALLS,
  ...ACCOUNT_CALLS,
  ...PROGRAM_CALLS,
  ...ASSIGNMENT_CALLS,
  ...PROGRAM_REPORT_CALLS,
  ...HISTORY_CALLS,
  ...REPORT_CALLS,
];

/** The README's REST section for the whole table. */
export const renderRestReadme = (calls: readonly RestCall[] = REST_CALLS): string =>
  renderReadme(calls);

export { callKey, errorBodyKeys, type Access, type RestCall } from "./contract/call";
export { README_BEGIN, README_END } from "./contract/readme";
export { checkShape, render, type Shape } from "./contract/shape";
