import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";

/** What a mock language model (`MockLanguageModelV3` of `ai/test`) answers: `text`, finished. */
export function modelReply(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 20, text: 20, reasoning: 0 },
    },
    warnings: [],
  };
}
