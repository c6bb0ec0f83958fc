import type { ComponentProps } from "react";
import { CATEGORIES, UNCATEGORIZED, type PritePart } from "@/core/constants";
import { Field } from "@/web/components/ui/field";
import { OptionSelect, type SelectOption } from "@/web/components/ui/select";
import { PART_OPTIONS, partOf, yearOptions } from "@/web/lib/options";

/** A field of an editor: label above, the control below, at the top of its grid cell. */
export function DialogField(props: Omit<ComponentProps<typeof Field>, "className">) {
  return <Field className="grid content-start gap-2" {...props} />;
}

/** Radix reserves '' for "nothing chosen": the empty category needs a value of its own. */
const NO_CATEGORY = "__uncategorized__";

/** The list's categories, "Uncategorized" first, and a category of the question's own not on it. */
function categoryOptions(current: string): SelectOption[] {
  const list: SelectOption[] = [{ value: NO_CATEGORY, label: UNCATEGORIZED }];
  const names: string[] = [...CATEGORIES];
  if (current && !names.includes(current)) names.unshift(current);
  return [...list, ...names.map((c) => ({ value: c, label: c }))];
}

export function PartField(props: {
  id: string;
  value: PritePart;
  onChange: (part: PritePart) => void;
}) {
  return (
    <DialogField id={props.id} label="Part">
      {(control) => (
        <OptionSelect
          {...control}
          value={props.value}
          onValueChange={(v) => props.onChange(partOf(v))}
          options={PART_OPTIONS}
        />
      )}
    </DialogField>
  );
}

/** The years every picker offers, and the question's own year when it is older. */
export function YearField(props: {
  id: string;
  value: number;
  storedYear: number | undefined;
  onChange: (year: number) => void;
}) {
  return (
    <DialogField id={props.id} label="Year">
      {(control) => (
        <OptionSelect
          {...control}
          value={String(props.value)}
          onValueChange={(v) => props.onChange(Number(v))}
          options={yearOptions(new Date(), props.storedYear)}
        />
      )}
    </DialogField>
  );
}

export function CategoryField(props: {
  id: string;
  value: string;
  onChange: (category: string) => void;
}) {
  return (
    <DialogField id={props.id} label="Category">
      {(control) => (
        <OptionSelect
          {...control}
          value={props.value || NO_CATEGORY}
          onValueChange={(v) => props.onChange(v === NO_CATEGORY ? "" : v)}
          options={categoryOptions(props.value)}
        />
      )}
    </DialogField>
  );
}
