import { describe, expect, it } from "vitest";
import { VISIBILITY_MESSAGES, shareStatementFor } from "@/core/visibility";
import {
  EMPTY_VISIBILITY,
  SHARE_SOURCE_MAX,
  shownVisibility,
  storedVisibilityDraft,
  visibilityLevels,
  visibilityRequest,
  type VisibilityContext,
} from "./visibility-draft";

const member: VisibilityContext = { program: { name: "Riverside" }, publicByDefault: false };
const loner: VisibilityContext = { program: null, publicByDefault: false };

describe("the visibility choice", () => {
  it("defaults like the server: program for a member, else the Public Profile", () => {
    expect(shownVisibility(EMPTY_VISIBILITY, member)).toBe("program");
    expect(shownVisibility(EMPTY_VISIBILITY, { ...member, publicByDefault: true })).toBe("program");
    expect(shownVisibility(EMPTY_VISIBILITY, loner)).toBe("private");
    expect(shownVisibility(EMPTY_VISIBILITY, { ...loner, publicByDefault: true })).toBe("public");
    expect(shownVisibility(EMPTY_VISIBILITY, { ...member, stored: "private" })).toBe("private");
  });

  it("offers program to members and for a question already in a program", () => {
    expect(visibilityLevels(member)).toEqual(["private", "program", "public"]);
    expect(visibilityLevels(loner)).toEqual(["private", "public"]);
    expect(visibilityLevels({ ...loner, stored: "program" })).toContain("program");
  });

  it("sends the level shown, and nothing while the program is unknown and nothing was picked", () => {
    expect(visibilityRequest(EMPTY_VISIBILITY, member)).toEqual({
      ok: true,
      request: { visibility: "program" },
    });
    expect(visibilityRequest(EMPTY_VISIBILITY, { ...loner, program: undefined })).toEqual({
      ok: true,
      request: {},
    });
    expect(visibilityRequest({ ...EMPTY_VISIBILITY, chosen: "program" }, loner)).toEqual({
      ok: false,
      message: VISIBILITY_MESSAGES.NOT_IN_PROGRAM,
    });
  });

  it("refuses public without the checkbox and a source", () => {
    const pub = { ...EMPTY_VISIBILITY, chosen: "public" as const };
    const refused = { ok: false, message: VISIBILITY_MESSAGES.STATEMENT_REQUIRED };
    expect(visibilityRequest(pub, member)).toEqual(refused);
    expect(visibilityRequest({ ...pub, consent: true }, member)).toEqual(refused);
    expect(visibilityRequest({ ...pub, source: "My notes" }, member)).toEqual(refused);
    expect(visibilityRequest({ ...pub, consent: true, source: " My notes " }, member)).toEqual({
      ok: true,
      request: { visibility: "public", shareStatement: shareStatementFor("My notes") },
    });
    // The Public Profile's default asks too.
    expect(visibilityRequest(EMPTY_VISIBILITY, { ...loner, publicByDefault: true })).toEqual(
      refused,
    );
  });

  it("keeps an already public question's statement unless a new one is given", () => {
    const ctx = { ...member, stored: "public" as const };
    const draft = storedVisibilityDraft("public");
    expect(visibilityRequest(draft, ctx)).toEqual({ ok: true, request: { visibility: "public" } });
    expect(visibilityRequest({ ...draft, consent: true }, ctx)).toEqual({
      ok: false,
      message: VISIBILITY_MESSAGES.STATEMENT_REQUIRED,
    });
  });

  it("leaves room for the source in the 500-character statement", () => {
    expect(shareStatementFor("x".repeat(SHARE_SOURCE_MAX)).length).toBeLessThanOrEqual(500);
  });
});
