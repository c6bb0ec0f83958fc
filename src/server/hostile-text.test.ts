/**
 * Issue 24 item 1: every normaliser and parser that takes a user's text or a file's cells stays linear.
 * Each gets 200,000 characters of the shapes that make backtracking regular expressions quadratic
 * (long runs of blanks or separators with no newline, before a character that makes the match fail)
 * and must finish in under a second.
 */
import { describe, expect, it } from "vitest";
import {
  detectColumns,
  detectDelimiter,
  defaultImportSettings,
  ImportError,
  parseCsv,
  parseRows,
  readAnswerCell,
  suggestImportSettings,
} from "../core/import";
import { parseAnswerKey, parseQuestionsJson, parseQuestionsText } from "../core/parsing";
import { dropNul, trimLineEnds } from "../core/text";
import { normaliseExplanation } from "./features/explanations/explanations.service";
import { paragraphs } from "../web/components/explanations/paragraphs";
import { keyFromResponse } from "../web/components/question-import/answer-key-data";

const N = 200_000;
const run = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);

/** Hostile texts: runs with no newline, each ending in a character that makes a greedy match fail. */
const HOSTILE: Record<string, string> = {
  "blanks between letters": `a${run(" ")}b`,
  "tabs and spaces": `a${run(" \t")}b`,
  "blanks then a newline": `${run(" ")}\n${run(" ")}x`,
  "dots and colons": `question${run(".:")}x`,
  slashes: `${run("/")}x`,
  "commas and semicolons": `1${run(", ;")}x`,
  dashes: `Question 1${run(" -")}x`,
  "numbered then blanks": `1.${run(" ")}!`,
  "option then blanks": `A)${run(" ")}!`,
  "answer then blanks": `Answer: A${run(" ")}!`,
  "parenthesised answers": run("(A) "),
  "code fence without end": `\`\`\`json${run(" ")}x`,
  "blank lines without text": `a${run("\n \n")}b`,
  digits: `${run("1")}.x`,
};

const CTX = { part: "1" as const, year: 2024 };

const PARSERS: Record<string, (text: string) => unknown> = {
  normaliseExplanation,
  trimLineEnds,
  dropNul,
  paragraphs,
  parseQuestionsText: (t) => parseQuestionsText(t, CTX),
  parseQuestionsJson: (t) => parseQuestionsJson(t, CTX),
  parseAnswerKey,
  "answer key from the AI path": (t) => keyFromResponse({ data: t }),
  parseCsv: (t) => parseCsv(t),
  detectDelimiter,
  readAnswerCell: (t) => readAnswerCell(t),
  "header detection": (t) => detectColumns([t, t.slice(0, 50), "a", "b", "answer"]),
  "suggested settings": (t) =>
    suggestImportSettings([
      [t, "A", "B"],
      [t, t, t],
    ]),
  "standard format": (t) =>
    parseRows([[t], [`1. ${t}`], [`A) ${t}`]], defaultImportSettings({ format: "standard" })),
  "question per row": (t) =>
    parseRows(
      [
        ["question", "a", "b", "answer"],
        [t, t, t, t],
      ],
      defaultImportSettings({
        format: "questionPerRow",
        questionColumn: 0,
        hasOptions: true,
        optionAColumn: 1,
        optionBColumn: 2,
        answerColumn: 3,
      }),
    ),
  "q&a format": (t) =>
    parseRows([[t], [t]], defaultImportSettings({ format: "qa", questionColumn: 0 })),
};

describe("hostile text is handled in linear time", () => {
  for (const [parser, parse] of Object.entries(PARSERS)) {
    it(`${parser}: every hostile shape of ${N.toLocaleString("en-US")} characters in under a second`, () => {
      for (const [shape, text] of Object.entries(HOSTILE)) {
        const started = performance.now();
        try {
          parse(text);
        } catch (error) {
          // A clear refusal (too many columns, too long) is an answer too; anything else is a bug.
          expect(error, `${parser} on ${shape}`).toBeInstanceOf(ImportError);
        }
        const elapsed = performance.now() - started;
        expect(elapsed, `${parser} on ${shape}`).toBeLessThan(1000);
      }
    });
  }
});
