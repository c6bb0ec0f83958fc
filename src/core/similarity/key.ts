/**
 * What similarity compares (docs/product/product-decisions.md): the string lower-cased with all whitespace removed; '' for
 * anything that is not a string.
 */
export function similarityKey(value: unknown): string {
  return typeof value === "string" ? value.toLowerCase().replace(/\s+/g, "") : "";
}
