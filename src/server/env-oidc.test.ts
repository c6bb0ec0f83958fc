import { describe, expect, it } from "vitest";
import { loadEnv, oidcSettings } from "./env";

const OIDC = {
  OIDC_ISSUER: "https://login.example.org/tenant/v2.0",
  OIDC_CLIENT_ID: "client",
  OIDC_CLIENT_SECRET: "secret",
  OIDC_NAME: "Example University",
  PUBLIC_URL: "https://prite.example.org/",
};

describe("sign-in with the institution's account in the environment (issue 33)", () => {
  it("is off without settings, and on with all of them", () => {
    expect(oidcSettings(loadEnv({}))).toBeNull();
    expect(loadEnv({}).PASSWORD_SIGN_IN).toBe("on");
    expect(
      oidcSettings(loadEnv({ ...OIDC, OIDC_ALLOWED_DOMAINS: " Program.example, @med.example ," })),
    ).toEqual({
      issuer: OIDC.OIDC_ISSUER,
      clientId: "client",
      clientSecret: "secret",
      name: "Example University",
      allowedDomains: ["program.example", "med.example"],
      redirectUri: "https://prite.example.org/api/auth/oidc/callback",
    });
  });

  it("refuses half a configuration, naming every missing setting", () => {
    for (const missing of Object.keys(OIDC)) {
      const env: Record<string, string> = { ...OIDC };
      delete env[missing];
      expect(() => loadEnv(env)).toThrow(`${missing} is needed for sign-in`);
    }
    expect(() => loadEnv({ OIDC_ALLOWED_DOMAINS: "program.example" })).toThrow(
      "OIDC_ALLOWED_DOMAINS needs OIDC_ISSUER",
    );
    expect(() => loadEnv({ PASSWORD_SIGN_IN: "off" })).toThrow("PASSWORD_SIGN_IN=off needs");
    expect(() => loadEnv({ ...OIDC, PASSWORD_SIGN_IN: "no" })).toThrow(
      "PASSWORD_SIGN_IN must be on or off",
    );
    expect(() => loadEnv({ ...OIDC, OIDC_ISSUER: "not a url" })).toThrow("OIDC_ISSUER must be");
    expect(() => loadEnv({ ...OIDC, PUBLIC_URL: "ftp://x.example" })).toThrow("PUBLIC_URL must");
  });

  it("allows PUBLIC_URL alone (mail links use it too)", () => {
    expect(loadEnv({ PUBLIC_URL: "https://prite.example.org" }).PUBLIC_URL).toBe(
      "https://prite.example.org",
    );
  });
});
