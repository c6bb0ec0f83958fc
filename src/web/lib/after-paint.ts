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
function afterPaintWhenIdle(task: () => void, timeoutMs = 3_000): () => void {
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

/**
 * How long after the page's load event background work waits: past the first screen's own requests
 * and tasks on a phone (on slow 4G they take a second or two), which it would otherwise lengthen.
 */
const BACKGROUND_START_MS = 2_500;

/**
 * Runs `task` BACKGROUND_START_MS after the page has loaded, when the browser is next idle: for work
 * no screen waits for (the offline copy's download, the service worker's registration, issue 20 item
 * 3). Answers a cancel.
 */
export function inBackgroundAfterLoad(task: () => void): () => void {
  let cancelRest = () => {};
  const start = () => {
    const timer = setTimeout(() => {
      cancelRest = afterPaintWhenIdle(task, 2_000);
    }, BACKGROUND_START_MS);
    cancelRest = () => clearTimeout(timer);
  };
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
  return () => {
    window.removeEventListener("load", start);
    cancelRest();
  };
}
