import http from "node:http";
import Provider from "oidc-provider";

/** The claims a test gives one of the provider's accounts (its login name is the subject). */
export interface TestAccountClaims {
  email?: string;
  email_verified?: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims by login name; a login not set here gets `<login>@example.test`, verified. */
  accounts: Map<string, TestAccountClaims>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider` with its development login and consent pages) on 127.0.0.1
 * and a free port, with one confidential client allowed `redirectUri` and PKCE required.
 */
export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port for the test provider");
  const issuer = `http://127.0.0.1:${address.port}`;
  const clientId = "prite-test";
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const accounts = new Map<string, TestAccountClaims>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: [clientSecret] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({
        sub,
        email: `${sub}@example.test`,
        email_verified: true,
        ...accounts.get(sub),
      }),
    }),
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
