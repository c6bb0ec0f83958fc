import { describe, expect, it } from "vitest";
import {
  REPORT_MESSAGES,
  ZCreateReport,
  ZReportQueueQuery,
  ZResolveReport,
  ZTakedownDecision,
} from "./reports";

const QUESTION = "00000000-0000-4000-8000-000000000001";
const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe("report inputs (docs/product/reports.md)", () => {
  it("take the six kinds, trim the comment, and need one for other", () => {
    for (const kind of ["wrong_answer", "unclear", "outdated", "duplicate", "copyright"]) {
      expect(ZCreateReport.parse({ questionId: QUESTION, kind })).toEqual({
        questionId: QUESTION,
        kind,
        comment: "",
      });
    }
    expect(
      ZCreateReport.parse({ questionId: QUESTION, kind: "other", comment: "  Typo in C  " })
        .comment,
    ).toBe("Typo in C");
    expect(firstMessage(ZCreateReport.safeParse({ questionId: QUESTION, kind: "other" }))).toBe(
      REPORT_MESSAGES.COMMENT_REQUIRED,
    );
    expect(firstMessage(ZCreateReport.safeParse({ questionId: QUESTION, kind: "typo" }))).toBe(
      REPORT_MESSAGES.KIND,
    );
    expect(
      firstMessage(
        ZCreateReport.safeParse({
          questionId: QUESTION,
          kind: "unclear",
          comment: "x".repeat(2001),
        }),
      ),
    ).toBe(REPORT_MESSAGES.COMMENT_LONG);
  });

  it("take a kind however a client spells it, and refuse what names none", () => {
    const kindOf = (kind: unknown) =>
      ZCreateReport.safeParse({ questionId: QUESTION, kind, comment: "x" });
    for (const spelling of [
      "wrong_answer",
      "wrong answer",
      "Wrong-Answer",
      "wrongAnswer",
      "WRONG_KEY",
    ])
      expect(kindOf(spelling).data?.kind).toBe("wrong_answer");
    expect(kindOf("Unclear or ambiguous").data?.kind).toBe("unclear");
    expect(kindOf(" Copyright ").data?.kind).toBe("copyright");
    for (const bad of ["typo", "", 3, null]) {
      const parsed = kindOf(bad);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(REPORT_MESSAGES.KIND);
    }
  });

  it("close a report as answered (with a note), fixed or dismissed", () => {
    const id = QUESTION;
    expect(ZResolveReport.parse({ id, outcome: "fixed" })).toEqual({
      id,
      outcome: "fixed",
      note: "",
    });
    expect(firstMessage(ZResolveReport.safeParse({ id, outcome: "answered", note: " " }))).toBe(
      REPORT_MESSAGES.ANSWER_REQUIRED,
    );
    expect(firstMessage(ZResolveReport.safeParse({ id, outcome: "open" }))).toBe(
      REPORT_MESSAGES.OUTCOME,
    );
    expect(firstMessage(ZResolveReport.safeParse({ id: "nope", outcome: "fixed" }))).toBe(
      REPORT_MESSAGES.NOT_FOUND,
    );
  });

  it("default the queue to every report, and take restore or keep", () => {
    expect(ZReportQueueQuery.parse(undefined)).toEqual({ open: false });
    expect(ZReportQueueQuery.parse({ open: true })).toEqual({ open: true });
    expect(
      firstMessage(ZTakedownDecision.safeParse({ questionId: QUESTION, decision: "delete" })),
    ).toBe(REPORT_MESSAGES.DECISION);
  });
});
