import { describe, expect, it } from "vitest";
import { answersFromData, keyFromResponse } from "./answer-key-data";

describe("answersFromData", () => {
  it("reads an object map, normalising letters", () => {
    expect(answersFromData({ "1": "b", "2": "(D)", "3": "F", x: "A" })).toEqual({ 1: "B", 2: "D" });
  });

  it("reads code-fenced JSON text", () => {
    expect(answersFromData('```json\n{"10": "C", "11": "a"}\n```')).toEqual({ 10: "C", 11: "A" });
  });

  it("reads {answers: {...}}", () => {
    expect(answersFromData({ answers: { 4: "E" } })).toEqual({ 4: "E" });
  });

  it("falls back to the answer-key parser for plain text", () => {
    expect(answersFromData("1. B 2. D\n3) (A)")).toEqual({ 1: "B", 2: "D", 3: "A" });
  });

  it("gives nothing for nothing", () => {
    expect(answersFromData(null)).toEqual({});
    expect(answersFromData([1, 2])).toEqual({});
    expect(answersFromData("")).toEqual({});
  });
});

describe("keyFromResponse", () => {
  it("keeps the server parser's warnings beside the answers", () => {
    const warnings = [
      "Answers given as numbers were read as letters: 1 = A, 2 = B, 3 = C, 4 = D, 5 = E.",
    ];
    expect(keyFromResponse({ data: { "1": "A", "2": "C" }, warnings })).toEqual({
      answers: { 1: "A", 2: "C" },
      warnings,
    });
  });

  it("reads plain text with the parser here, adding its warnings", () => {
    expect(keyFromResponse({ data: "1. 2\n2. 4", warnings: [] })).toEqual({
      answers: { 1: "B", 2: "D" },
      warnings: [
        "Answers given as numbers were read as letters: 1 = A, 2 = B, 3 = C, 4 = D, 5 = E.",
      ],
    });
  });

  it("treats a missing warnings field (an older server) as none", () => {
    expect(keyFromResponse({ data: '```json\n{"3": "e"}\n```' })).toEqual({
      answers: { 3: "E" },
      warnings: [],
    });
  });
});
