import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { Env } from "../env";

/** null when no key is configured: every AI feature then takes its deterministic path. */
export function createAiModel(
  env: Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "AI_MODEL">,
): LanguageModel | null {
  if (!env.OPENAI_API_KEY) return null;
  const provider = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL });
  // OpenAI-compatible local servers speak Chat Completions, not the Responses API.
  return env.OPENAI_BASE_URL ? provider.chat(env.AI_MODEL) : provider(env.AI_MODEL);
}
