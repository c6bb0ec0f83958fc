/** The names of exported files, shared by Settings > Data and `prite export`. */

/** 'YYYY-MM-DD' of the resident's own calendar (not UTC): what the file name says is "today". */
export function localDateStamp(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** e.g. prite_study_data_2025-03-14.json (docs/product/rest-api.md), or prite_questions_2025-03-14.apkg for Anki. */
export function exportFileName(prefix: string, now: Date, extension = "json"): string {
  return `${prefix}${localDateStamp(now)}.${extension}`;
}
