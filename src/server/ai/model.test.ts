import { generateText } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { aiConfigured, createAiModel } from "./model";

interface Sent {
  url: string;
  authorization: string | null;
  body: { model?: string };
}

/** A fetch that records the request and answers as an OpenAI-compatible chat server would. */
function fakeServer(reply: string) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({
      url: String(input),
      authorization: headers.get("authorization"),
      body: JSON.parse(String(init?.body ?? "{}")) as Sent["body"],
    });
    return new Response(
      JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "local-model",
        choices: [
          { index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      }),
      { status: 200, headers: { "content-type": "application/json" } },
    );
  };
  return { fetch, sent };
}

// The provider falls back to these variables when an option is missing: keep the host's out.
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});
afterEach(() => {
  if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
  if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
});

describe("createAiModel", () => {
  it("is off with neither a key nor a base URL", async () => {
    expect(await createAiModel({ AI_MODEL: "gpt-4o-mini" })).toBeNull();
    expect(aiConfigured({})).toBe(false);
  });

  it("uses a keyless local server given only OPENAI_BASE_URL, over Chat Completions", async () => {
    const server = fakeServer("Lithium.");
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", AI_MODEL: "llama3" };
    expect(aiConfigured(env)).toBe(true);
    const model = await createAiModel(env, { fetch: server.fetch });
    expect(model).not.toBeNull();
    const { text } = await generateText({ model: model!, prompt: "First-line?", maxRetries: 0 });
    expect(text).toBe("Lithium.");
    expect(server.sent).toHaveLength(1);
    expect(server.sent[0]).toMatchObject({
      url: "http://127.0.0.1:11434/v1/chat/completions",
      authorization: null,
      body: { model: "llama3" },
    });
  });

  it("sends the key to a compatible server that wants one", async () => {
    const server = fakeServer("ok");
    const model = await createAiModel(
      { OPENAI_API_KEY: "sk-local", OPENAI_BASE_URL: "http://llm.internal/v1", AI_MODEL: "m" },
      { fetch: server.fetch },
    );
    await generateText({ model: model!, prompt: "hi", maxRetries: 0 });
    expect(server.sent[0]).toMatchObject({
      url: "http://llm.internal/v1/chat/completions",
      authorization: "Bearer sk-local",
    });
  });

  it("uses OpenAI's Responses API with a key and no base URL", async () => {
    const server = fakeServer("unused");
    const model = await createAiModel(
      { OPENAI_API_KEY: "sk-test", AI_MODEL: "gpt-4o-mini" },
      { fetch: server.fetch },
    );
    // The fake answers in the chat format, so the call fails after the request was recorded.
    await generateText({ model: model!, prompt: "hi", maxRetries: 0 }).catch(() => undefined);
    expect(server.sent[0]).toMatchObject({
      url: "https://api.openai.com/v1/responses",
      authorization: "Bearer sk-test",
      body: { model: "gpt-4o-mini" },
    });
  });
});
