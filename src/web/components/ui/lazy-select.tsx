import { ChevronDown } from "lucide-react";
import { lazy, Suspense, useState, type KeyboardEvent, type PointerEvent } from "react";
import { cn } from "@/web/lib/utils";
import type { OptionSelectProps } from "./select";
import { SELECT_TRIGGER_CLASSES } from "./select-trigger";

const RadixOptionSelect = lazy(() => import("./select").then((m) => ({ default: m.OptionSelect })));

/** The keys that open a Radix Select from its trigger. */
const OPEN_KEYS = [" ", "Enter", "ArrowUp", "ArrowDown"];

/**
 * `OptionSelect` for a page's first screen (issue 20 item 3): until it is wanted (pointed at, focused,
 * pressed) it is a light stand-in that looks and reads the same (a combobox button named by its label,
 * showing the chosen option), and the Radix Select, with its code (the `forms` file), loads and takes
 * its place then, opened if the stand-in was pressed and focused if it had the focus. On a phone the
 * Radix Selects of Study and Browse, code and mount, were a good part of the first load's long tasks.
 */
export function LazyOptionSelect(props: OptionSelectProps) {
  const [wanted, setWanted] = useState<{ open: boolean; focus: boolean } | null>(null);
  const want = (open: boolean) =>
    setWanted((w) => ({
      open: open || !!w?.open,
      focus: w?.focus || document.activeElement?.id === props.id,
    }));
  const chosen =
    props.value === "" ? undefined : props.options.find((o) => o.value === props.value);

  const standIn = (interactive: boolean) => (
    <button
      type="button"
      role="combobox"
      id={props.id}
      aria-expanded={false}
      aria-autocomplete="none"
      aria-label={props["aria-label"]}
      aria-invalid={props["aria-invalid"]}
      aria-describedby={props["aria-describedby"]}
      aria-required={props.required}
      disabled={props.disabled}
      data-state="closed"
      data-placeholder={chosen ? undefined : ""}
      className={cn(SELECT_TRIGGER_CLASSES, props.triggerClassName)}
      {...(interactive && {
        onPointerEnter: () => want(false),
        onFocus: () => want(false),
        onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
          if (event.button === 0 && event.pointerType === "mouse") {
            event.preventDefault();
            want(true);
          } else want(false);
        },
        onClick: () => want(true),
        onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
          if (OPEN_KEYS.includes(event.key)) {
            event.preventDefault();
            want(true);
          }
        },
      })}
    >
      <span style={{ pointerEvents: "none" }}>{chosen ? chosen.label : props.placeholder}</span>
      <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden="true" />
    </button>
  );

  if (!wanted) return standIn(true);
  return (
    <Suspense fallback={standIn(false)}>
      <RadixOptionSelect {...props} defaultOpen={wanted.open} autoFocus={wanted.focus} />
    </Suspense>
  );
}
