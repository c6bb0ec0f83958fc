// The part of oidc-provider 8 the tests use (it ships no types).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Record<string, unknown>[];
        claims?: Record<string, string[]>;
        pkce?: { required: () => boolean };
        features?: Record<string, { enabled: boolean }>;
        cookies?: { keys: string[] };
        findAccount: (ctx: unknown, sub: string) => Account | Promise<Account>;
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
