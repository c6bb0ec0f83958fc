import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLASHCARD_MESSAGES } from "../../../core/schemas/flashcard";
import { MEDIA_MESSAGES } from "../../../core/media";
import { questionMedia, questions } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { storeMedia } from "../media/media.service";
import { restAs } from "../users/users.fixtures";
import { adminAliceBob, questionCount, validQuestion } from "./questions.fixtures";

/**
 * Flashcards (issue 17) through createCaller and through HTTP: made, read, edited and deleted like any
 * question, with HTML sides sanitized on the server and images shown to those who see the card.
 */

let h: Harness;
let alice: TestUser;
let bob: TestUser;
const rest = (...args: Parameters<ReturnType<typeof restAs>>) => restAs(h)(...args);

let seq = 0;
/** A PNG of Alice's, stored (not yet shown by any question). */
async function image(): Promise<string> {
  seq += 1;
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, seq, 42]);
  return (await storeMedia(h.db.db, { bytes, uploadedBy: alice.user.id })).sha256;
}

const card = (over: Record<string, unknown> = {}) => ({
  front: "What does <b>clozapine</b> require?",
  back: "<ul><li>ANC monitoring</li></ul>",
  category: "Psychopharmacology",
  part: "1",
  year: 2024,
  source: "Psych::Pharm",
  ...over,
});

beforeAll(async () => {
  h = await createHarness();
  ({ alice, bob } = await adminAliceBob(h, "cards"));
});
afterAll(async () => {
  await h.close();
});

describe("questions.createFlashcard", () => {
  it("saves a flashcard with its sides, source and images, answered as question JSON", async () => {
    const [a, b] = [await image(), await image()];
    const saved = await alice.caller.questions.createFlashcard(
      card({
        front: `Front <img src="${a}" alt="scan">`,
        back: `Back <img src="${b}"><img src="${a}">`,
        isPublic: true,
      }),
    );
    expect(saved).toMatchObject({
      questionType: "flashcard",
      text: `Front <img src="${a}" alt="scan">`,
      back: `Back <img src="${b}"><img src="${a}">`,
      source: "Psych::Pharm",
      images: [a, b],
      options: {},
      correctAnswer: "",
      correctAnswers: [],
      isPublic: true,
      creator: alice.user.id,
    });
    expect(await bob.caller.questions.get({ id: saved._id })).toMatchObject({
      images: [a, b],
      back: saved.back,
    });
    const rows = await h.db.db
      .select()
      .from(questionMedia)
      .where(eq(questionMedia.questionId, saved._id));
    expect(rows.sort((x, y) => x.position - y.position).map((r) => r.sha256)).toEqual([a, b]);
  });

  it("sanitizes XSS payloads typed into the editor, keeping formatting", async () => {
    const saved = await alice.caller.questions.createFlashcard(
      card({
        front:
          `<script>alert(1)</script><img src=x onerror=alert(1)><b onclick="alert(1)">Lithium</b>` +
          `<a href="javascript:alert(1)">link</a><iframe src="https://evil.test"></iframe>` +
          `<svg onload=alert(1)><circle/></svg><img src="https://evil.test/track.png">`,
        back: `<table><tr><td>x<sup>2</sup></td></tr></table><style>*{}</style><p style="x">ok</p>`,
      }),
    );
    expect(saved.text).toBe("<b>Lithium</b>link");
    expect(saved.back).toBe("<table><tr><td>x<sup>2</sup></td></tr></table><p>ok</p>");
    expect(saved.images).toEqual([]);
  });

  it("refuses a blank side, an image that was never uploaded, and bad fields, writing nothing", async () => {
    const before = await questionCount(h);
    const cases: [Record<string, unknown>, string][] = [
      [{ front: "  <p> </p>" }, FLASHCARD_MESSAGES.FRONT_REQUIRED],
      [{ front: "<script>only a script</script>" }, FLASHCARD_MESSAGES.FRONT_REQUIRED],
      [{ back: "" }, FLASHCARD_MESSAGES.BACK_REQUIRED],
      [{ front: `<img src="${"c".repeat(64)}">` }, MEDIA_MESSAGES.NOT_UPLOADED],
      [{ front: "x".repeat(20_001) }, "The front of the card must be at most 20000 characters"],
      [{ source: "s".repeat(201) }, "Source must be at most 200 characters"],
      [{ part: "3" }, "Part must be 1 or 2"],
    ];
    for (const [over, message] of cases) {
      await expect(alice.caller.questions.createFlashcard(card(over) as never)).rejects.toThrow(
        message,
      );
    }
    expect(await questionCount(h)).toBe(before);
  });

  it("an image-only side is not blank", async () => {
    const a = await image();
    const saved = await alice.caller.questions.createFlashcard(card({ front: `<img src="${a}">` }));
    expect(saved.images).toEqual([a]);
  });
});

describe("questions.update on a flashcard", () => {
  it("changes the sides and the images shown; the card stays a flashcard", async () => {
    const [a, b] = [await image(), await image()];
    const saved = await alice.caller.questions.createFlashcard(
      card({ front: `Q <img src="${a}">` }),
    );
    const updated = await alice.caller.questions.update({
      id: saved._id,
      data: { back: `New back <img src="${b}"><script>x</script>`, options: { A: "x" } } as never,
    });
    expect(updated).toMatchObject({
      questionType: "flashcard",
      text: `Q <img src="${a}">`,
      back: `New back <img src="${b}">`,
      images: [a, b],
      options: {},
    });
    // The JSON's own name for the front works too.
    const again = await alice.caller.questions.update({
      id: saved._id,
      data: { text: "<i>Renamed</i>", source: "Other deck" } as never,
    });
    expect(again).toMatchObject({ text: "<i>Renamed</i>", source: "Other deck", images: [b] });
    await expect(
      alice.caller.questions.update({ id: saved._id, data: { back: " " } as never }),
    ).rejects.toThrow(FLASHCARD_MESSAGES.BACK_REQUIRED);
  });

  it("is refused to anyone but the creator: 404 on a private card, 403 on a public one", async () => {
    const priv = await alice.caller.questions.createFlashcard(card({ isPublic: false }));
    const pub = await alice.caller.questions.createFlashcard(card({ isPublic: true }));
    await expect(
      bob.caller.questions.update({ id: priv._id, data: { back: "stolen" } as never }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      bob.caller.questions.update({ id: pub._id, data: { back: "stolen" } as never }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(bob.caller.questions.delete({ id: pub._id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await alice.caller.questions.get({ id: pub._id })).back).toBe(pub.back);
  });

  it("a bulk save cannot turn a flashcard into a multiple-choice question", async () => {
    const saved = await alice.caller.questions.createFlashcard(card());
    await expect(
      alice.caller.questions.bulkCreate({
        questions: [{ ...validQuestion(), _id: saved._id } as never],
      }),
    ).rejects.toThrow("Item 1 (question 7): A flashcard cannot be replaced");
    expect((await alice.caller.questions.get({ id: saved._id })).questionType).toBe("flashcard");
  });
});

describe("Browse's filters", () => {
  it("by type and by source, over what the viewer may see", async () => {
    const deck = `Deck ${Math.random().toString(36).slice(2, 8)}`;
    const mine = await alice.caller.questions.createFlashcard(card({ source: deck }));
    const mcq = await alice.caller.questions.create(validQuestion() as never);
    const search = (input: Record<string, unknown>) =>
      alice.caller.questions.search({ visibility: "mine", pageSize: 100, ...input } as never);

    const cards = await search({ type: "flashcard" });
    expect(cards.items.every((q) => q.questionType === "flashcard")).toBe(true);
    expect(cards.items.map((q) => q._id)).toContain(mine._id);
    const mcqs = await search({ type: "multipleChoice" });
    expect(mcqs.items.every((q) => q.questionType !== "flashcard")).toBe(true);
    expect(mcqs.items.map((q) => q._id)).toContain(mcq._id);
    expect((await search({ type: "all" })).total).toBe(cards.total + mcqs.total);

    const fromDeck = await search({ source: deck });
    expect(fromDeck.items.map((q) => q._id)).toEqual([mine._id]);
    expect((await search({ source: deck, type: "multipleChoice" })).total).toBe(0);
    await expect(search({ type: "cloze" })).rejects.toThrow(
      "Type must be all, multipleChoice or flashcard",
    );

    // A private deck's name is Alice's alone.
    expect(await alice.caller.questions.sources()).toContain(deck);
    expect(await bob.caller.questions.sources()).not.toContain(deck);
    expect((await bob.caller.questions.search({ source: deck })).total).toBe(0);
  });
});

describe("through HTTP", () => {
  it("POST /api/questions with questionType flashcard, PUT, search by type and source, sources, DELETE", async () => {
    const a = await image();
    const deck = `Rest deck ${seq}`;
    const created = await rest(
      "POST",
      "/api/questions",
      alice,
      card({
        questionType: "flashcard",
        front: `<b>F</b><img src="${a}">`,
        source: deck,
        isPublic: true,
      }),
    );
    expect(created.statusCode).toBe(201);
    const json = created.json();
    expect(json).toMatchObject({
      questionType: "flashcard",
      text: `<b>F</b><img src="${a}">`,
      images: [a],
    });

    const put = await rest("PUT", `/api/questions/${json._id}`, alice, { back: "<i>B2</i>" });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ back: "<i>B2</i>", questionType: "flashcard" });

    const found = await rest(
      "GET",
      `/api/questions/search?type=flashcard&source=${encodeURIComponent(deck)}`,
      bob,
    );
    expect(found.statusCode).toBe(200);
    expect(found.json().map((q: { _id: string }) => q._id)).toEqual([json._id]);
    expect((await rest("GET", "/api/questions/search?type=nope", bob)).statusCode).toBe(400);
    const sources = await rest("GET", "/api/questions/sources", bob);
    expect(sources.statusCode).toBe(200);
    expect(sources.json()).toContain(deck);

    // The card's image: served to Bob while the card is public, 404 once it is deleted.
    expect((await rest("GET", `/api/media/${a}`, bob)).statusCode).toBe(200);
    const bad = await rest(
      "POST",
      "/api/questions",
      alice,
      card({ questionType: "flashcard", back: "" }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: FLASHCARD_MESSAGES.BACK_REQUIRED });
    expect((await rest("DELETE", `/api/questions/${json._id}`, alice)).statusCode).toBe(200);
    expect((await rest("GET", `/api/media/${a}`, bob)).statusCode).toBe(404);
    expect((await rest("GET", `/api/media/${a}`, alice)).statusCode).toBe(404);
  });
});

describe("export", () => {
  it("includes flashcards with their type, back, source and images", async () => {
    const a = await image();
    const saved = await alice.caller.questions.createFlashcard(
      card({ back: `B <img src="${a}">`, source: "Export deck" }),
    );
    const { questions: exported } = await alice.caller.users.exportQuestions();
    expect(exported.find((q) => q._id === saved._id)).toMatchObject({
      questionType: "flashcard",
      back: `B <img src="${a}">`,
      source: "Export deck",
      images: [a],
    });
    const [row] = await h.db.db.select().from(questions).where(eq(questions.id, saved._id));
    expect(row!.questionType).toBe("flashcard");
  });
});
