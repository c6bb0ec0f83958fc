import { ChevronDown, Flag, ListOrdered } from "lucide-react";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { cn } from "@/web/lib/utils";

interface NavigatorAnswer {
  selected: string[];
  flagged: boolean;
}

interface QuestionNavigatorProps {
  /** Each question's answer, in the exam's order. */
  answers: readonly NavigatorAnswer[];
  index: number;
  onJump: (index: number) => void;
}

/**
 * The exam's numbered questions, answered and flagged ones marked. On a wide screen always shown; on a
 * phone folded behind a row that shows the progress (issue 31): forty numbers before the question put
 * the question itself below the fold. Jumping to a question folds it again.
 */
export function QuestionNavigator({ answers, index, onJump }: QuestionNavigatorProps) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const id = useId();
  const answered = answers.filter((a) => a.selected.length > 0).length;
  const flagged = answers.filter((a) => a.flagged).length;

  const fold = () => {
    if (!open) return;
    setOpen(false);
    // The number that had the focus is hidden with the list: the row takes it back.
    toggle.current?.focus();
  };

  // The runner's keys are on the window: Enter (confirm) and Space stay these buttons' own, and Escape
  // folds the list.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" || event.key === " ") event.stopPropagation();
    if (event.key === "Escape" && open) {
      event.stopPropagation();
      fold();
    }
  };

  return (
    <div className="grid gap-2" onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        className="flex min-h-11 items-center gap-2 rounded-md border bg-card px-3 text-left text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring sm:hidden"
      >
        <ListOrdered aria-hidden="true" className="size-4 shrink-0" />
        Questions
        <span className="ml-auto text-muted-foreground">
          {answered}/{answers.length} answered
          {flagged > 0 && ` · ${flagged} flagged`}
        </span>
        <ChevronDown
          aria-hidden="true"
          className={cn("size-4 shrink-0 transition-transform", open && "rotate-180")}
        />
      </button>
      <nav
        id={id}
        aria-label="Questions"
        className={cn("flex-wrap gap-1.5", open ? "flex" : "hidden sm:flex")}
      >
        {answers.map((a, i) => {
          const isAnswered = a.selected.length > 0;
          const state = [isAnswered ? "answered" : "not answered", a.flagged ? "flagged" : ""]
            .filter(Boolean)
            .join(", ");
          return (
            <button
              key={i}
              type="button"
              onClick={() => {
                onJump(i);
                fold();
              }}
              aria-current={i === index ? "step" : undefined}
              aria-label={`Question ${i + 1}, ${state}`}
              className={cn(
                "relative size-9 rounded-md border text-sm font-medium",
                isAnswered && "bg-primary/15 border-primary/40",
                i === index && "ring-2 ring-primary",
              )}
            >
              {i + 1}
              {a.flagged && (
                <Flag
                  aria-hidden="true"
                  className="absolute -top-1 -right-1 size-3 fill-warning text-warning"
                />
              )}
            </button>
          );
        })}
      </nav>
    </div>
  );
}
