/**
 * Settings › Study's words for the FSRS parameters (issue 31): which set is in use, and what an
 * Optimize run did. When the optimizer kept the defaults there is no fit to compare, so the reason
 * the server gives is shown instead of Before/After figures that would only repeat the defaults.
 */
export function parametersInUse(customParameters: boolean): string {
  return customParameters
    ? "Your fitted parameters are in use."
    : "The default parameters are in use.";
}

export interface OptimizeOutcome {
  /** The success banner after a fit; none when nothing was fitted. */
  banner: string | null;
  /** Why the defaults were kept, shown in place of the Before/After table; null after a fit. */
  keptDefaults: string | null;
}

export function optimizeOutcome(result: { keptDefaults: string | null }): OptimizeOutcome {
  if (result.keptDefaults) return { banner: null, keptDefaults: result.keptDefaults };
  return { banner: "Your parameters were fitted to your reviews", keptDefaults: null };
}
