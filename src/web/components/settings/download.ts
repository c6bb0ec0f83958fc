/** 'YYYY-MM-DD' of the resident's own calendar (not UTC): what the file name says is "today". */
export function localDateStamp(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** e.g. prite_study_data_2025-03-14.json (SPEC §7). */
export function exportFileName(prefix: string, now: Date): string {
  return `${prefix}${localDateStamp(now)}.json`;
}

/** Saves `data` as a pretty-printed JSON file through the browser's download. */
export function downloadJson(data: unknown, fileName: string): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns: release it on the next turn.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
