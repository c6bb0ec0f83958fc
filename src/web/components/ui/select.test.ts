import { describe, expect, it } from "vitest";
import { chosenValue, EMPTY_CHOICE, selectItems } from "./select";

const levels = [
  { value: "1", label: "PGY-1" },
  { value: "2", label: "PGY-2" },
];

describe("OptionSelect's empty choice", () => {
  it("offers 'Select PGY Level' first, and choosing it reports an empty value", () => {
    const items = selectItems(levels, "Select PGY Level");
    expect(items.map((i) => i.label)).toEqual(["Select PGY Level", "PGY-1", "PGY-2"]);
    // Radix refuses an item whose value is "": the empty choice has its own, mapped back to "".
    expect(items[0]!.value).not.toBe("");
    expect(chosenValue(items[0]!.value)).toBe("");
    expect(chosenValue(EMPTY_CHOICE)).toBe("");
    expect(chosenValue("2")).toBe("2");
  });

  it("offers only the options without one", () => {
    expect(selectItems(levels, undefined)).toEqual(levels);
  });
});
