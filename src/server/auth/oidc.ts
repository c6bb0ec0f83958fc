import * as client from "openid-client";
import type { OidcSettings } from "../env";

/** What one sign-in's browser carries between the start and the callback (in a sealed cookie). */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
}

/** The claims the server acts on, from the ID token, completed from the UserInfo endpoint. */
export interface OidcClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

export interface RelyingParty {
  start(): Promise<{ url: URL; flow: OidcFlow }>;
  /** Exchanges the callback's code (PKCE, state and nonce checked); throws on anything amiss. */
  finish(callbackUrl: URL, flow: OidcFlow): Promise<OidcClaims>;
}

const SCOPE = "openid email profile";
const DISCOVERY_TIMEOUT_S = 10;

/** Plain HTTP is only ever accepted from a provider on this machine (the tests' provider). */
function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/**
 * The relying party of `openid-client`. The provider's metadata is discovered on the first sign-in
 * and kept; a failed discovery is tried again on the next one, so the server starts while the
 * provider is away.
 */
export function createRelyingParty(settings: OidcSettings): RelyingParty {
  let configuration: Promise<client.Configuration> | undefined;
  const issuer = new URL(settings.issuer);
  const discover = () => {
    configuration ??= client
      // client_secret_basic: the OpenID default every provider accepts (Okta enforces the method an
      // app was registered with, and that is its default).
      .discovery(
        issuer,
        settings.clientId,
        settings.clientSecret,
        client.ClientSecretBasic(settings.clientSecret),
        {
          timeout: DISCOVERY_TIMEOUT_S,
          execute: isLoopbackHttp(issuer) ? [client.allowInsecureRequests] : [],
        },
      )
      .catch((err: unknown) => {
        configuration = undefined;
        throw err;
      });
    return configuration;
  };

  return {
    async start() {
      const config = await discover();
      const flow: OidcFlow = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: "S256",
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url, flow };
    },

    async finish(callbackUrl, flow) {
      const config = await discover();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      let email = typeof idClaims.email === "string" ? idClaims.email : undefined;
      let verified = idClaims.email_verified;
      // Many providers put the email in the ID token; the others answer it from UserInfo.
      if (email === undefined) {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        email = typeof info.email === "string" ? info.email : undefined;
        verified = info.email_verified;
      }
      return {
        issuer: idClaims.iss,
        subject: idClaims.sub,
        email: email?.trim() || null,
        // Only the boolean true counts: a provider's "true" string or an absent claim does not.
        emailVerified: verified === true,
      };
    },
  };
}
