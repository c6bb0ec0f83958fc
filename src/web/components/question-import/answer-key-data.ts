import { parseAnswerKey } from "@/core/parsing";

const MAX_NUMBER = 9_999;

function stripFences(text: string): string {
  const match = /```(?:json)?\s*([\s\S]*?)(?:```|$)/i.exec(text);
  return (match?.[1] ?? text).trim();
}

/** {"1": "b", "2": "(D)"} → {1: "B", 2: "D"}; entries that are not a number and a letter A-E are dropped. */
function normalise(value: unknown): Record<number, string> {
  const out: Record<number, string> = {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
  const record = (value as { answers?: unknown }).answers ?? value;
  if (typeof record !== "object" || record === null || Array.isArray(record)) return out;
  for (const [key, raw] of Object.entries(record as Record<string, unknown>)) {
    const number = Number(key.trim());
    if (!Number.isInteger(number) || number < 1 || number > MAX_NUMBER) continue;
    const letter = typeof raw === "string" ? raw.replace(/[()\s.]/g, "").toUpperCase() : "";
    if (/^[A-E]$/.test(letter)) out[number] = letter;
  }
  return out;
}

/**
 * The AI path's answer for an answer key (SPEC §7: a map of question number to letter, as an object
 * or as JSON text, possibly code-fenced) → {number: letter}. Text that is not JSON is read by the
 * deterministic answer-key parser instead.
 */
export function answersFromData(data: unknown): Record<number, string> {
  if (typeof data !== "string") return normalise(data);
  const text = stripFences(data);
  try {
    return normalise(JSON.parse(text) as unknown);
  } catch {
    return { ...parseAnswerKey(data).answers };
  }
}
