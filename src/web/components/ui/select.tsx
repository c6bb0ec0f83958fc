import { Check, ChevronDown, ChevronUp } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useState,
  type ComponentProps,
  type FocusEvent,
  type PointerEvent,
} from "react";
import { cn } from "@/web/lib/utils";
import { chosenOption, SELECT_TRIGGER_CLASSES } from "./select-trigger";

/**
 * Whether a Select's list is wanted yet. Closed, Radix still renders every item (into a detached
 * fragment, to find the chosen item's text) and, inside a form, a native option per item, each added
 * by a state update of the Select: on Browse's five filters that was a long task of the page's first
 * render on a phone (issue 20 item 3). So the list mounts only once the trigger is pointed at, focused
 * or opened; until then the trigger shows the chosen option's label itself (`SelectValue`'s children).
 */
const ListWanted = createContext<{ wanted: boolean; want: () => void } | null>(null);

/**
 * Radix's Select root, with its list mounted lazily (see `ListWanted`). A `required` Select mounts its
 * list at once: the browser validates the native select that the items fill.
 */
export function Select({
  open,
  onOpenChange,
  required,
  defaultOpen,
  ...props
}: ComponentProps<typeof SelectPrimitive.Root>) {
  const [wanted, setWanted] = useState(!!required || !!defaultOpen);
  const want = useCallback(() => setWanted(true), []);
  const lazy = useMemo(() => ({ wanted: wanted || !!open, want }), [wanted, open, want]);
  return (
    <ListWanted.Provider value={lazy}>
      <SelectPrimitive.Root
        open={open}
        defaultOpen={defaultOpen}
        required={required}
        onOpenChange={(next) => {
          if (next) setWanted(true);
          onOpenChange?.(next);
        }}
        {...props}
      />
    </ListWanted.Provider>
  );
}

export const SelectGroup = SelectPrimitive.Group;
export const SelectValue = SelectPrimitive.Value;

export function SelectTrigger({
  className,
  children,
  onPointerEnter,
  onPointerDown,
  onFocus,
  ...props
}: ComponentProps<typeof SelectPrimitive.Trigger>) {
  const want = useContext(ListWanted)?.want;
  return (
    <SelectPrimitive.Trigger
      onPointerEnter={(event: PointerEvent<HTMLButtonElement>) => {
        want?.();
        onPointerEnter?.(event);
      }}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        want?.();
        onPointerDown?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLButtonElement>) => {
        want?.();
        onFocus?.(event);
      }}
      className={cn(SELECT_TRIGGER_CLASSES, className)}
      {...props}
    >
      {children}
      <SelectPrimitive.Icon asChild>
        <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden="true" />
      </SelectPrimitive.Icon>
    </SelectPrimitive.Trigger>
  );
}

export function SelectContent({
  className,
  children,
  position = "popper",
  ...props
}: ComponentProps<typeof SelectPrimitive.Content>) {
  const lazy = useContext(ListWanted);
  if (lazy && !lazy.wanted) return null;
  return (
    <SelectPrimitive.Portal>
      <SelectPrimitive.Content
        position={position}
        className={cn(
          "relative z-50 max-h-(--radix-select-content-available-height) min-w-32 overflow-hidden",
          "rounded-md border bg-popover text-popover-foreground shadow-lg",
          position === "popper" &&
            "w-full min-w-(--radix-select-trigger-width) data-[side=bottom]:translate-y-1 data-[side=top]:-translate-y-1",
          className,
        )}
        {...props}
      >
        <SelectPrimitive.ScrollUpButton className="flex h-7 items-center justify-center">
          <ChevronUp className="size-4" aria-hidden="true" />
        </SelectPrimitive.ScrollUpButton>
        <SelectPrimitive.Viewport className="p-1">{children}</SelectPrimitive.Viewport>
        <SelectPrimitive.ScrollDownButton className="flex h-7 items-center justify-center">
          <ChevronDown className="size-4" aria-hidden="true" />
        </SelectPrimitive.ScrollDownButton>
      </SelectPrimitive.Content>
    </SelectPrimitive.Portal>
  );
}

export function SelectLabel({ className, ...props }: ComponentProps<typeof SelectPrimitive.Label>) {
  return (
    <SelectPrimitive.Label
      className={cn("px-2 py-1.5 text-xs font-medium text-muted-foreground", className)}
      {...props}
    />
  );
}

export function SelectItem({
  className,
  children,
  ...props
}: ComponentProps<typeof SelectPrimitive.Item>) {
  return (
    <SelectPrimitive.Item
      className={cn(
        "relative flex min-h-11 w-full items-center rounded-sm py-2 pr-8 pl-2 text-base outline-none select-none",
        "data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground",
        "data-[disabled]:pointer-events-none data-[disabled]:opacity-50",
        className,
      )}
      {...props}
    >
      <SelectPrimitive.ItemText>{children}</SelectPrimitive.ItemText>
      <span className="absolute right-2 flex size-4 items-center justify-center">
        <SelectPrimitive.ItemIndicator>
          <Check className="size-4" aria-hidden="true" />
        </SelectPrimitive.ItemIndicator>
      </span>
    </SelectPrimitive.Item>
  );
}

export function SelectSeparator({
  className,
  ...props
}: ComponentProps<typeof SelectPrimitive.Separator>) {
  return (
    <SelectPrimitive.Separator className={cn("-mx-1 my-1 h-px bg-border", className)} {...props} />
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface OptionSelectProps extends Omit<
  ComponentProps<typeof SelectPrimitive.Root>,
  "children" | "value" | "onValueChange"
> {
  /** Goes on the trigger, so a <Label htmlFor={id}> names it. */
  id?: string;
  /** "" shows the placeholder (Radix reserves the empty string for "nothing chosen"). */
  value: string;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  placeholder?: string;
  /**
   * Label of a first item that chooses nothing (reports ""), so a chosen value can be cleared again,
   * e.g. 'Select PGY Level'. While nothing is chosen the trigger shows the placeholder as usual.
   */
  emptyOption?: string;
  triggerClassName?: string;
  /** Focuses the trigger when it mounts (the light stand-in of `lazy-select.tsx` had the focus). */
  autoFocus?: boolean;
  "aria-label"?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}

/** Radix reserves "" for "nothing chosen", so the item that chooses nothing carries this instead. */
export const EMPTY_CHOICE = "__empty__";

/** The items an OptionSelect offers: the empty choice first when there is one. */
export function selectItems(
  options: readonly SelectOption[],
  emptyOption: string | undefined,
): SelectOption[] {
  return emptyOption === undefined
    ? [...options]
    : [{ value: EMPTY_CHOICE, label: emptyOption }, ...options];
}

/** What a chosen item reports to the form: "" for the empty choice. */
export function chosenValue(itemValue: string): string {
  return itemValue === EMPTY_CHOICE ? "" : itemValue;
}

/** The common case in one line: a labelled list of options. */
export function OptionSelect({
  id,
  value,
  onValueChange,
  options,
  placeholder,
  emptyOption,
  triggerClassName,
  autoFocus,
  "aria-label": ariaLabel,
  "aria-invalid": ariaInvalid,
  "aria-describedby": ariaDescribedBy,
  ...rootProps
}: OptionSelectProps) {
  // Shown by the trigger itself: the list that Radix would take it from mounts lazily.
  const chosen = chosenOption(options, value);
  return (
    <Select value={value} onValueChange={(v) => onValueChange(chosenValue(v))} {...rootProps}>
      <SelectTrigger
        id={id}
        className={triggerClassName}
        autoFocus={autoFocus}
        aria-label={ariaLabel}
        aria-invalid={ariaInvalid}
        aria-describedby={ariaDescribedBy}
      >
        <SelectValue placeholder={placeholder}>{chosen?.label}</SelectValue>
      </SelectTrigger>
      <SelectContent>
        {selectItems(options, emptyOption).map((option) => (
          <SelectItem key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
