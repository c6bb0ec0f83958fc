import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEDIA_MESSAGES } from "../../../core/media";
import { media, questions } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { adminAliceBob } from "../questions/questions.fixtures";
import { addQuestion } from "../study/test-fixtures";
import { getMedia, setQuestionMedia, storeMedia } from "./media.service";

let h: Harness;
let alice: TestUser;
let bob: TestUser;

/** A PNG-signed file, distinct per call so each test owns its image. */
let seq = 0;
function png(): Uint8Array {
  seq += 1;
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, seq, seq >> 8, 7]);
}
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  h = await createHarness();
  ({ alice, bob } = await adminAliceBob(h, "media"));
});
afterAll(async () => {
  await h.close();
});

/** An image shown by a question of Alice's. */
async function imageOn(isPublic: boolean, bytes = png()) {
  const stored = await storeMedia(h.db.db, { bytes, uploadedBy: alice.user.id });
  const q = await addQuestion(h.db.db, alice.user.id, { isPublic });
  await setQuestionMedia(h.db.db, q.id, [stored.sha256]);
  return { ...stored, questionId: q.id, bytes };
}

const get = async (who: TestUser | null, hash: string, headers: Record<string, string> = {}) =>
  (await h.app()).inject({
    method: "GET",
    url: `/api/media/${hash}`,
    headers: { ...(who?.headers ?? {}), ...headers },
  });

describe("storeMedia", () => {
  it("keys an image by the SHA-256 of its bytes and stores it once however often it is stored", async () => {
    const bytes = png();
    const first = await storeMedia(h.db.db, { bytes, uploadedBy: alice.user.id });
    const again = await storeMedia(h.db.db, { bytes, uploadedBy: bob.user.id });
    expect(first).toEqual({ sha256: sha(bytes), mimeType: "image/png" });
    expect(again).toEqual(first);
    const rows = await h.db.db.select().from(media).where(eq(media.sha256, first.sha256));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.uploadedBy).toBe(alice.user.id);
    expect(rows[0]!.byteSize).toBe(bytes.length);
    expect(new Uint8Array(rows[0]!.bytes)).toEqual(bytes);
  });

  it("refuses a file that is not an image with a clear message, storing nothing", async () => {
    const before = await h.db.db.select({ s: media.sha256 }).from(media);
    await expect(
      storeMedia(h.db.db, {
        bytes: new TextEncoder().encode("<html>not a picture</html>"),
        uploadedBy: alice.user.id,
      }),
    ).rejects.toThrow(MEDIA_MESSAGES.NOT_AN_IMAGE);
    expect(await h.db.db.select({ s: media.sha256 }).from(media)).toEqual(before);
  });

  it("stores an SVG without its script, keyed by what is stored", async () => {
    const stored = await storeMedia(h.db.db, {
      bytes: new TextEncoder().encode(
        `<svg onload="alert(1)"><script>x()</script><rect width="${seq}"/></svg>`,
      ),
      uploadedBy: alice.user.id,
    });
    const [row] = await h.db.db.select().from(media).where(eq(media.sha256, stored.sha256));
    const text = new TextDecoder().decode(row!.bytes);
    expect(text).not.toMatch(/script|onload/);
    expect(stored).toEqual({ sha256: sha(new Uint8Array(row!.bytes)), mimeType: "image/svg+xml" });
  });

  it("refuses to show an image on a question when it was never uploaded", async () => {
    const q = await addQuestion(h.db.db, alice.user.id, {});
    await expect(setQuestionMedia(h.db.db, q.id, ["a".repeat(64)])).rejects.toThrow(
      MEDIA_MESSAGES.NOT_UPLOADED,
    );
  });
});

describe("GET /api/media/:sha256", () => {
  it("serves the image with its type, private immutable caching, an ETag and nosniff", async () => {
    const img = await imageOn(false);
    const res = await get(alice, img.sha256);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["cache-control"]).toBe("private, max-age=31536000, immutable");
    expect(res.headers.etag).toBe(`"${img.sha256}"`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(new Uint8Array(res.rawPayload)).toEqual(img.bytes);
  });

  it("answers 304 to a browser that has it", async () => {
    const img = await imageOn(true);
    const res = await get(bob, img.sha256, { "if-none-match": `"${img.sha256}"` });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
  });

  it("sandboxes an SVG", async () => {
    const stored = await storeMedia(h.db.db, {
      bytes: new TextEncoder().encode(`<svg><circle r="${seq + 100}"/></svg>`),
      uploadedBy: alice.user.id,
    });
    const q = await addQuestion(h.db.db, alice.user.id, { isPublic: true });
    await setQuestionMedia(h.db.db, q.id, [stored.sha256]);
    const res = await get(bob, stored.sha256);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.headers["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
  });

  it("serves exactly those who can see a question showing it, 404 to everyone else", async () => {
    const privateImg = await imageOn(false);
    const publicImg = await imageOn(true);
    expect((await get(alice, privateImg.sha256)).statusCode).toBe(200);
    expect((await get(bob, privateImg.sha256)).statusCode).toBe(404);
    expect((await get(bob, publicImg.sha256)).statusCode).toBe(200);
    expect((await get(null, publicImg.sha256)).statusCode).toBe(401);

    // Made private: Bob loses it; shown by a public question too: Bob has it again.
    await h.db.db
      .update(questions)
      .set({ isPublic: false })
      .where(eq(questions.id, publicImg.questionId));
    expect((await get(bob, publicImg.sha256)).statusCode).toBe(404);
    const q = await addQuestion(h.db.db, alice.user.id, { isPublic: true });
    await setQuestionMedia(h.db.db, q.id, [publicImg.sha256]);
    expect((await get(bob, publicImg.sha256)).statusCode).toBe(200);

    // Deleting the question that showed it hides it from its own uploader too.
    await h.db.db.delete(questions).where(eq(questions.id, privateImg.questionId));
    expect((await get(alice, privateImg.sha256)).statusCode).toBe(404);
  });

  it("answers 404, never caching it, for an image no question shows, a hash never stored and a malformed key", async () => {
    const orphan = await storeMedia(h.db.db, { bytes: png(), uploadedBy: alice.user.id });
    for (const hash of [orphan.sha256, "b".repeat(64), "not-a-hash", "A".repeat(64)]) {
      const res = await get(alice, hash);
      expect([hash, res.statusCode]).toEqual([hash, 404]);
      expect(res.json()).toEqual({ message: MEDIA_MESSAGES.NOT_FOUND });
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  it("media.get answers the same through createCaller", async () => {
    const img = await imageOn(false);
    const mine = await alice.caller.media.get({ sha256: img.sha256.toUpperCase() });
    expect(mine.mimeType).toBe("image/png");
    expect(new Uint8Array(mine.bytes)).toEqual(img.bytes);
    await expect(bob.caller.media.get({ sha256: img.sha256 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(getMedia(h.db.db, bob.user.id, img.sha256)).rejects.toThrow(
      MEDIA_MESSAGES.NOT_FOUND,
    );
  });
});
