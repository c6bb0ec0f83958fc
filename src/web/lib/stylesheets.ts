/**
 * Applies the stylesheets the built index.html preloads instead of linking (decision 275: the boot
 * screen paints without waiting for them). Resolves once each has loaded or failed, so the first render
 * is never drawn unstyled; by then the preload has usually finished, so this costs no round trip. In
 * development Vite injects the styles itself and there is nothing to apply.
 */
export function applyPreloadedStylesheets(doc: Document = document): Promise<void> {
  const preloads = doc.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"]');
  return Promise.all(
    Array.from(preloads, (preload) => {
      const sheet = doc.createElement("link");
      sheet.rel = "stylesheet";
      // The same request as the preload's (its crossorigin included), or the browser fetches it again.
      if (preload.crossOrigin !== null) sheet.crossOrigin = preload.crossOrigin;
      const applied = new Promise<void>((resolve) => {
        sheet.addEventListener("load", () => resolve(), { once: true });
        sheet.addEventListener("error", () => resolve(), { once: true });
      });
      sheet.href = preload.href;
      preload.after(sheet);
      return applied;
    }),
  ).then(() => undefined);
}
