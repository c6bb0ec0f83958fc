import { cn } from "@/web/lib/utils";
import { fieldClasses } from "./input";

/** A Select trigger's look: Radix's (select.tsx) and its light stand-in's (lazy-select.tsx). */
export const SELECT_TRIGGER_CLASSES = cn(
  fieldClasses,
  "flex h-11 items-center justify-between gap-2 py-2 text-left",
  "data-[placeholder]:text-muted-foreground [&>span]:truncate",
);

/** The option a Select shows as chosen ("" is none: the placeholder shows). */
export function chosenOption<T extends { value: string }>(options: readonly T[], value: string) {
  return value === "" ? undefined : options.find((option) => option.value === value);
}
