/** Saves `data` as a pretty-printed JSON file through the browser's download. */
export function downloadJson(data: unknown, fileName: string): void {
  downloadBlob(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }), fileName);
}

/** Saves base64 `data` (an Anki package) as a file through the browser's download. */
export function downloadBase64(data: string, fileName: string, type: string): void {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
  downloadBlob(new Blob([bytes], { type }), fileName);
}

function downloadBlob(blob: Blob, fileName: string): void {
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

/** Saves `text` (a CSV table) as a file through the browser's download. */
export function downloadText(text: string, fileName: string, type = "text/csv"): void {
  downloadBlob(new Blob([text], { type: `${type};charset=utf-8` }), fileName);
}
