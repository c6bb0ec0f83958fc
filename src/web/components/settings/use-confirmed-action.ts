import { useEffect, useRef, useState } from "react";
import { RELOAD_DELAY_MS } from "@/core/constants";
import type { AlertType } from "@/web/components/ui/alert";
import { useConfirm, type ConfirmOptions } from "@/web/components/ui/dialog";
import { errorMessage } from "@/web/lib/trpc";

interface ConfirmedActionOptions {
  confirmation: ConfirmOptions;
  run: () => Promise<unknown>;
  successMessage: string;
  /** Shown when the server gives no message of its own (docs/product/errors.md). */
  failureMessage: string;
  /** What follows a success, 1.5 s later (docs/product/states.md and constants.md): a reload, a sign-out … */
  afterSuccess: () => void;
  show: (type: AlertType, message: string) => void;
}

/**
 * Ask, run, report, then follow up after the spec's delay: the shape of Reset Study Progress and
 * Delete Account. `done` stays true after a success so the button cannot run twice meanwhile.
 */
export function useConfirmedAction(options: ConfirmedActionOptions) {
  const { confirm, dialog } = useConfirm();
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const trigger = async () => {
    const { confirmation, run, successMessage, failureMessage, afterSuccess, show } = options;
    if (!(await confirm(confirmation))) return;
    setRunning(true);
    try {
      await run();
      setDone(true);
      show("success", successMessage);
      timer.current = window.setTimeout(afterSuccess, RELOAD_DELAY_MS);
    } catch (error) {
      show("error", errorMessage(error, failureMessage));
    } finally {
      setRunning(false);
    }
  };

  return { trigger, running, done, dialog };
}
