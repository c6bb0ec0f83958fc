import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { Part } from "@/core/import/types";
import { PartYearFields } from "@/web/components/import/question-fields";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardFooter } from "@/web/components/ui/card";
import { Label } from "@/web/components/ui/label";
import { Textarea } from "@/web/components/ui/textarea";

interface PasteInputCardProps {
  idPrefix: string;
  part: Part;
  year: number;
  onPartChange: (part: Part) => void;
  onYearChange: (year: number) => void;
  textLabel: string;
  rows: number;
  text: string;
  onTextChange: (text: string) => void;
  placeholder?: string;
  actionLabel: string;
  busy: boolean;
  onSubmit: () => void;
}

/**
 * Part, Year, a paste area and one button: the input step of both /test tabs. The button is
 * disabled while the text is blank or a request runs, and reads 'Processing...' meanwhile (docs/product/validation.md).
 */
export function PasteInputCard(props: PasteInputCardProps) {
  const textId = `${props.idPrefix}-text`;
  return (
    <Card>
      <CardContent className="grid gap-5">
        <PartYearFields
          idPrefix={props.idPrefix}
          part={props.part}
          year={props.year}
          onPartChange={props.onPartChange}
          onYearChange={props.onYearChange}
          partLabel="Part"
          yearLabel="Year"
        />
        <div className="grid gap-2">
          <Label htmlFor={textId}>{props.textLabel}</Label>
          <Textarea
            id={textId}
            rows={props.rows}
            value={props.text}
            onChange={(event) => props.onTextChange(event.target.value)}
            placeholder={props.placeholder}
          />
        </div>
      </CardContent>
      <CardFooter className="justify-end">
        <Button onClick={props.onSubmit} disabled={props.text.trim() === ""} busy={props.busy}>
          {props.busy ? "Processing..." : props.actionLabel}
        </Button>
      </CardFooter>
    </Card>
  );
}

/** A finished (or empty-handed) step: big icon, heading, a line of text, the next actions. */
export function OutcomeCard({
  icon: Icon,
  iconClassName,
  title,
  children,
  actions,
}: {
  icon: LucideIcon;
  iconClassName: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <Card className="items-center text-center">
      <CardContent className="grid justify-items-center gap-3">
        <Icon className={`size-12 ${iconClassName}`} aria-hidden="true" />
        <h2 className="text-xl font-semibold">{title}</h2>
        <p className="text-muted-foreground">{children}</p>
        <div className="flex flex-wrap justify-center gap-2">{actions}</div>
      </CardContent>
    </Card>
  );
}

/** Back / Save under a long review list, kept in reach of the thumb above the bottom tabs. */
export function StickyActions({ children }: { children: ReactNode }) {
  return (
    <div className="sticky bottom-[calc(4.5rem+env(safe-area-inset-bottom))] flex flex-wrap justify-between gap-2 rounded-lg border bg-card/95 p-3 shadow-md backdrop-blur">
      {children}
    </div>
  );
}

/**
 * The parser's notes on how it read the pasted text (e.g. an answer key's later sections left out,
 * answers given as numbers read as letters): shown on the review step, never auto-closed.
 */
export function ParserWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <Alert type="warning" dismissible={false} autoCloseMs={null} title="Check before saving">
      <ul aria-label="Parser warnings" className="grid list-disc gap-1 pl-5">
        {warnings.map((warning, i) => (
          <li key={i} className="break-words">
            {warning}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
