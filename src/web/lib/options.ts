import type { SelectOption } from "@/web/components/ui/select";

/** SPEC §3: registration PGY choices; the value is what the server stores. */
export const PGY_LEVEL_OPTIONS: readonly SelectOption[] = [
  { value: "1", label: "PGY-1" },
  { value: "2", label: "PGY-2" },
  { value: "3", label: "PGY-3" },
  { value: "4", label: "PGY-4" },
  { value: "5", label: "PGY-5" },
  { value: "6+", label: "PGY-6+" },
  { value: "Fellow", label: "Fellow" },
  { value: "Attending", label: "Attending" },
  { value: "Other", label: "Other" },
];
