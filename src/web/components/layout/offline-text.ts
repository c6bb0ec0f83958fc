/**
 * The offline banner's words (issue 18, docs/decisions/190). With nothing waiting it says only
 * "Offline": a count of zero is noise, and the count appears the moment there is something to sync.
 */
export function offlineBannerText(waiting: number): string {
  if (waiting <= 0) return "Offline";
  return `Offline — ${waiting} ${waiting === 1 ? "answer" : "answers"} waiting to sync`;
}
