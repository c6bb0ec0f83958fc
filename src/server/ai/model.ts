import type { LanguageModel } from "ai";
import type { Env } from "../env";

type AiEnv = Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "AI_MODEL">;
type Fetch = typeof globalThis.fetch;

/**
 * A model is configured by a key (OpenAI itself, or any server that wants one) or by a base URL alone
 * (a local OpenAI-compatible server that needs no key, docs/ARCHITECTURE.md).
 */
export function aiConfigured(env: Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL">): boolean {
  return Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
}

/** Requests to a keyless server carry no Authorization header rather than an empty 'Bearer '. */
function withoutAuthorization(inner: Fetch): Fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete("authorization");
    return inner(input, { ...init, headers });
  };
}

/**
 * The configured language model, or null when neither a key nor a base URL is set: every AI feature
 * then takes its deterministic path. `fetch` is for tests, which never reach the network. The provider
 * is loaded only when a model is configured (about 20 MB of the server's RSS, issue 20 item 4).
 */
export async function createAiModel(
  env: AiEnv,
  options: { fetch?: Fetch } = {},
): Promise<LanguageModel | null> {
  if (!aiConfigured(env)) return null;
  const { createOpenAI } = await import("@ai-sdk/openai");
  const fetch = options.fetch ?? globalThis.fetch;
  const apiKey = env.OPENAI_API_KEY;
  const provider = createOpenAI({
    // The provider insists on a key string; without one it sends none (see withoutAuthorization).
    apiKey: apiKey ?? "",
    baseURL: env.OPENAI_BASE_URL,
    fetch: apiKey ? fetch : withoutAuthorization(fetch),
  });
  // OpenAI-compatible local servers speak Chat Completions, not the Responses API.
  return env.OPENAI_BASE_URL ? provider.chat(env.AI_MODEL) : provider(env.AI_MODEL);
}
