import { startTransition, useEffect, useState } from "react";

/**
 * Runs `task` once the screen just rendered has been painted and shown: a task queued from the
 * animation frame after next (the frame that paints it is presented a little after its paint, and the
 * browser counts the paint from then). Answers a cancel. For work the first screen does not need
 * (issue 20 item 3): what starts before the first page is painted delays it on a phone, where every
 * request costs a round trip of slow 4G and every task four times what it costs here.
 */
export function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame = requestAnimationFrame(() => {
    frame = requestAnimationFrame(() => {
      timer = setTimeout(task, 0);
    });
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** `afterPaint`, then when the browser is next idle (within `timeoutMs`). Answers a cancel. */
export function afterPaintWhenIdle(task: () => void, timeoutMs = 3_000): () => void {
  let cancelIdle = () => {};
  const cancelPaint = afterPaint(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(task, { timeout: timeoutMs });
      cancelIdle = () => window.cancelIdleCallback(id);
    } else {
      const id = setTimeout(task, Math.min(timeoutMs, 1_000));
      cancelIdle = () => clearTimeout(id);
    }
  });
  return () => {
    cancelPaint();
    cancelIdle();
  };
}

/**
 * False until the component's first render has been painted, then true (in a transition: what it
 * brings is rendered in short slices).
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterPaint(() => startTransition(() => setPainted(true))), []);
  return painted;
}
