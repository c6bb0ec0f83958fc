import { parseAnswerKey } from "@/core/parsing";

const MAX_NUMBER = 9_999;

function stripFences(text: string): string {
  // indexOf rather than a lazy regular expression: linear on a long paste with one fence.
  const open = text.indexOf("```");
  if (open === -1) return text.trim();
  let start = open + 3;
  if (text.slice(start, start + 4).toLowerCase() === "json") start += 4;
  const close = text.indexOf("```", start);
  return text.slice(start, close === -1 ? undefined : close).trim();
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

/** What the answer-key review shows: the answers and the parser's notes about reading them. */
export interface KeyReading {
  answers: Record<number, string>;
  warnings: string[];
}

/**
 * The AI path's answer for an answer key (docs/product/rest-api.md: a map of question number to letter, as an object
 * or as JSON text, possibly code-fenced). Text that is not JSON is read by the deterministic
 * answer-key parser instead, with its warnings.
 */
function readKey(data: unknown): KeyReading {
  if (typeof data !== "string") return { answers: normalise(data), warnings: [] };
  try {
    return { answers: normalise(JSON.parse(stripFences(data)) as unknown), warnings: [] };
  } catch {
    const key = parseAnswerKey(data);
    return { answers: { ...key.answers }, warnings: key.warnings };
  }
}

/** {number: letter} from the AI path's `data`. */
export function answersFromData(data: unknown): Record<number, string> {
  return readKey(data).answers;
}

/**
 * The AI path's whole answer for an answer key → answers and warnings: the server's (its
 * deterministic parser's notes: extra sections, numeric answers, dropped items) and, for text that
 * is not JSON, those of the same parser run here.
 */
export function keyFromResponse(response: {
  data?: unknown;
  warnings?: readonly string[];
}): KeyReading {
  const read = readKey(response.data);
  return { answers: read.answers, warnings: [...(response.warnings ?? []), ...read.warnings] };
}
