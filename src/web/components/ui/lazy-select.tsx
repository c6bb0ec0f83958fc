import { ChevronDown } from "lucide-react";
import { useState, type KeyboardEvent, type PointerEvent } from "react";
import { cn } from "@/web/lib/utils";
import type { OptionSelectProps } from "./select";
import { chosenOption, SELECT_TRIGGER_CLASSES } from "./select-trigger";

type RadixSelect = typeof import("./select");

/** The keys that open a Radix Select from its trigger. */
const OPEN_KEYS = [" ", "Enter", "ArrowUp", "ArrowDown"];

/**
 * `OptionSelect` for a page's first screen (issue 20 item 3): until it is wanted (pointed at, focused,
 * pressed) it is a light stand-in that looks and reads the same (a combobox button named by its label,
 * showing the chosen option), and the Radix Select, with its code (the `forms` file), loads and takes
 * its place then: opened if the stand-in was pressed, focused if it had the focus. On a phone the Radix
 * Selects of Study and Browse, code and mount, were a good part of the first load's long tasks.
 *
 * The stand-in stays the same element until the code is in and no touch is under way on it, so a tap
 * that began on it ends on it (its click opens the Select), and a touch that turns into a scroll does
 * not open anything.
 */
export function LazyOptionSelect(props: OptionSelectProps) {
  const [radix, setRadix] = useState<RadixSelect | null>(null);
  const [wanted, setWanted] = useState<{ open: boolean; focus: boolean } | null>(null);
  const [touching, setTouching] = useState(false);

  const want = (open: boolean) => {
    const focus = !!props.id && document.activeElement?.id === props.id;
    setWanted((w) => ({ open: open || !!w?.open, focus: focus || !!w?.focus }));
    if (!radix) {
      import("./select")
        .then((module) => setRadix(module))
        // The stand-in stays; the next time it is wanted asks again.
        .catch(() => setWanted(null));
    }
  };

  if (radix && wanted && !touching) {
    return <radix.OptionSelect {...props} defaultOpen={wanted.open} autoFocus={wanted.focus} />;
  }
  const chosen = chosenOption(props.options, props.value);
  return (
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
      onPointerEnter={() => want(false)}
      onFocus={() => want(false)}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        // Like Radix: a mouse opens on press, a touch on its click (so a scroll opens nothing).
        if (event.pointerType === "mouse") {
          if (event.button !== 0 || event.ctrlKey) return;
          event.preventDefault();
          want(true);
        } else {
          setTouching(true);
          want(false);
        }
      }}
      onPointerCancel={() => setTouching(false)}
      onClick={() => {
        setTouching(false);
        want(true);
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        if (OPEN_KEYS.includes(event.key)) {
          event.preventDefault();
          want(true);
        }
      }}
    >
      <span style={{ pointerEvents: "none" }}>{chosen ? chosen.label : props.placeholder}</span>
      <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden="true" />
    </button>
  );
}
