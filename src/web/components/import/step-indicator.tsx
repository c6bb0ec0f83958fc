/**
 * The bulk import's steps, drawn by the wizard and by the complete screen (a chunk of its own since
 * decision 421): a module apart, so the complete screen does not import the wizard.
 */
export const WIZARD_STEPS = ["Upload", "Configure Import", "Review Questions", "Import Complete"];

export function StepIndicator({ step }: { step: 1 | 2 | 3 | 4 }) {
  return (
    <nav aria-label="Import steps">
      <ol className="flex items-center gap-2 text-sm">
        {WIZARD_STEPS.map((label, i) => {
          const number = i + 1;
          const current = number === step;
          return (
            <li
              key={label}
              aria-current={current ? "step" : undefined}
              className="flex min-w-0 flex-1 flex-col items-center gap-1 text-center"
            >
              <span
                className={
                  number <= step
                    ? "flex size-7 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground"
                    : "flex size-7 items-center justify-center rounded-full bg-muted font-semibold text-muted-foreground"
                }
              >
                {number}
              </span>
              <span
                className={
                  current
                    ? "text-xs leading-tight font-medium"
                    : "hidden text-xs leading-tight text-muted-foreground sm:inline"
                }
              >
                {label}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
