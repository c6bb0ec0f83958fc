import { describe, expect, it } from "vitest";
import { answersFromData } from "./answer-key-data";

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
