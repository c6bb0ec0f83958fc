import { cva } from "class-variance-authority";
import { CircleCheck, CircleX, Info, TriangleAlert, X } from "lucide-react";
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from "react";
import { cn } from "@/web/lib/utils";

export type AlertType = "info" | "success" | "warning" | "error";

/** docs/product/constants.md: banners close themselves after 5 seconds unless told otherwise. */
export const ALERT_AUTO_CLOSE_MS = 5000;

const alertVariants = cva(
  "relative flex w-full items-start gap-3 rounded-md border px-4 py-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-5 [&>svg]:shrink-0",
  {
    variants: {
      type: {
        info: "border-info/30 bg-info-soft text-info-soft-foreground [&>svg]:text-info",
        success:
          "border-success/30 bg-success-soft text-success-soft-foreground [&>svg]:text-success",
        warning:
          "border-warning/30 bg-warning-soft text-warning-soft-foreground [&>svg]:text-warning",
        error:
          "border-destructive/30 bg-error-soft text-error-soft-foreground [&>svg]:text-destructive",
      },
    },
    defaultVariants: { type: "info" },
  },
);

const icons = { info: Info, success: CircleCheck, warning: TriangleAlert, error: CircleX } as const;

export interface AlertProps extends Omit<ComponentProps<"div">, "title"> {
  type?: AlertType;
  title?: ReactNode;
  /**
   * Called when the banner closes (button or timer). Without it the banner hides itself; with it
   * the parent owns visibility (usually by clearing the message it rendered from).
   */
  onClose?: () => void;
  /** Show the close button. */
  dismissible?: boolean;
  /** Milliseconds before closing by itself; null or 0 keeps it until dismissed. */
  autoCloseMs?: number | null;
}

/**
 * The product's message banner. Errors and warnings interrupt the screen reader (role=alert),
 * information and success wait their turn (role=status). The timer pauses while the pointer or
 * keyboard focus is on the banner, so nobody loses a message they are reading.
 * To restart the timer for a repeated message, give the banner a new `key` (see useBanner).
 */
export function Alert({
  type = "info",
  title,
  onClose,
  dismissible = true,
  autoCloseMs = ALERT_AUTO_CLOSE_MS,
  className,
  children,
  ...props
}: AlertProps) {
  const [hidden, setHidden] = useState(false);
  const [paused, setPaused] = useState(false);

  // A ref, so a parent re-rendering with a new inline onClose does not restart the countdown.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  const close = useCallback(() => {
    setHidden(true);
    onCloseRef.current?.();
  }, []);

  useEffect(() => {
    if (!autoCloseMs || paused || hidden) return;
    const timer = window.setTimeout(close, autoCloseMs);
    return () => window.clearTimeout(timer);
  }, [autoCloseMs, paused, hidden, close]);

  if (hidden) return null;
  const Icon = icons[type];
  return (
    <div
      role={type === "error" || type === "warning" ? "alert" : "status"}
      className={cn(alertVariants({ type }), className)}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      {...props}
    >
      <Icon aria-hidden="true" />
      <div className="min-w-0 flex-1 self-center leading-relaxed">
        {title && <p className="font-semibold">{title}</p>}
        <div className="break-words">{children}</div>
      </div>
      {dismissible && (
        <button
          type="button"
          aria-label="Dismiss"
          onClick={close}
          className={cn(
            "-my-2 -mr-3 inline-flex size-11 shrink-0 items-center justify-center rounded-md opacity-80",
            "outline-none hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring",
          )}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

interface BannerState {
  type: AlertType;
  message: string;
  key: number;
}

/**
 * One banner slot for a screen: `show('error', message)` replaces whatever is showing and restarts
 * the timer, even for the same message twice in a row. Render `banner` where messages belong.
 */
export function useBanner(options: { autoCloseMs?: number | null } = {}) {
  const [state, setState] = useState<BannerState | null>(null);
  const show = useCallback((type: AlertType, message: string) => {
    setState((previous) => ({ type, message, key: (previous?.key ?? 0) + 1 }));
  }, []);
  const clear = useCallback(() => setState(null), []);
  const banner = state ? (
    <Alert key={state.key} type={state.type} onClose={clear} autoCloseMs={options.autoCloseMs}>
      {state.message}
    </Alert>
  ) : null;
  return { show, clear, banner, current: state };
}
