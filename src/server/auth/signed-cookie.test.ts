import { describe, expect, it } from "vitest";
import { derivedKey, openValue, sealValue } from "./signed-cookie";

describe("sealed cookie values", () => {
  const key = derivedKey("client secret", "oidc-cookies");
  const now = 1_800_000_000_000;

  it("open to the value they sealed until they expire", () => {
    const sealed = sealValue(key, { state: "s", nonce: "n" }, now + 1000);
    expect(openValue(key, sealed, now)).toEqual({ state: "s", nonce: "n" });
    expect(openValue(key, sealed, now + 1000)).toBeNull();
  });

  it("refuse an altered value, another key's seal, and garbage", () => {
    const sealed = sealValue(key, { userId: "a" }, now + 1000);
    const [body, mac] = sealed.split(".") as [string, string];
    const forged = Buffer.from(
      Buffer.from(body, "base64url").toString().replace('"a"', '"b"'),
    ).toString("base64url");
    expect(openValue(key, `${forged}.${mac}`, now)).toBeNull();
    expect(openValue(derivedKey("other secret", "oidc-cookies"), sealed, now)).toBeNull();
    expect(openValue(derivedKey("client secret", "other purpose"), sealed, now)).toBeNull();
    for (const junk of [undefined, "", ".", "abc", `${body}.`, `${body}.${mac}x`]) {
      expect(openValue(key, junk, now)).toBeNull();
    }
  });
});
