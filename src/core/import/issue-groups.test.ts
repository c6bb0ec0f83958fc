import { describe, expect, it } from "vitest";
import { ANKI_WARNING_KINDS } from "./anki/messages";
import { groupIssues, issueGroupLine } from "./issue-groups";

describe("groupIssues (issue 31: one line per kind of warning)", () => {
  it("issues of one kind are one group with the count and the first five numbers, in order of first issue", () => {
    const issues = [
      { row: 2, message: "Note 2: Answer D inferred from the colour …", kind: "colourAnswer" },
      {
        row: 3,
        message: "Note 3: Sound removed (a.mp3): PRITE Study does not play audio.",
        kind: "sound",
      },
      ...[4, 5, 6, 7, 8, 9].map((row) => ({
        row,
        message: `Note ${row}: Answer A inferred from the colour …`,
        kind: "colourAnswer",
      })),
    ];
    expect(groupIssues(issues, (i) => i.row, ANKI_WARNING_KINDS)).toEqual([
      { message: ANKI_WARNING_KINDS.colourAnswer, count: 7, first: [2, 4, 5, 6, 7] },
      { message: "Sound removed (a.mp3): PRITE Study does not play audio.", count: 1, first: [3] },
    ]);
  });

  it("issues without a known kind group by their message without the 'Row N: ' prefix", () => {
    const issues = [
      { row: 4, message: "Row 4: the answer cell is empty" },
      { row: 9, message: "Row 9: the answer cell is empty" },
      { row: 5, message: "Row 5: something else", kind: "unknown" },
    ];
    expect(groupIssues(issues, (i) => i.row)).toEqual([
      { message: "the answer cell is empty", count: 2, first: [4, 9] },
      { message: "something else", count: 1, first: [5] },
    ]);
  });

  it("a group is one line with its count and first numbers; a group of one reads as its issue", () => {
    expect(
      issueGroupLine({ message: "Answer inferred.", count: 590, first: [2, 3, 4, 5, 6] }, "note"),
    ).toBe("590 notes: Answer inferred. (notes 2, 3, 4, 5, 6, …)");
    expect(issueGroupLine({ message: "No answer.", count: 2, first: [4, 9] }, "row")).toBe(
      "2 rows: No answer. (rows 4, 9)",
    );
    expect(issueGroupLine({ message: "No answer.", count: 1, first: [4] }, "row")).toBe(
      "row 4: No answer.",
    );
  });
});
