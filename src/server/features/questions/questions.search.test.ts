import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { validQuestion } from "./questions.fixtures";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { containsPattern, searchQuestions } from "./questions.service";
import { UNCATEGORIZED } from "../../../core/constants";
import { searchTerms } from "./questions.types";

let h: Harness;
let alice: TestUser;
let bob: TestUser;
const ids: Record<string, string> = {};

async function add(who: TestUser, key: string, overrides: Record<string, unknown>) {
  const q = await who.caller.questions.create(validQuestion(overrides) as never);
  ids[key] = q._id;
}

async function rest(who: TestUser, url: string) {
  const app = await h.app();
  return app.inject({ method: "GET", url, headers: who.headers });
}

beforeAll(async () => {
  h = await createHarness();
  await h.user({ username: "search_admin" });
  alice = await h.user({ username: "search_alice" });
  bob = await h.user({ username: "search_bob" });
  // Alice's private question shares every word searched below with public ones.
  await add(alice, "alicePrivate", {
    text: "Clozapine monitoring SECRETWORD agranulocytosis",
    options: { A: "Weekly ANC", B: "Lipids" },
    explanation: "Private 100% explanation with under_score and back\\slash",
    category: "Psychopharmacology",
    part: "2",
    isPublic: false,
  });
  await add(alice, "alicePublic", {
    text: "Clozapine and seizures",
    options: { A: "Dose related", B: "Idiosyncratic" },
    explanation: "Public explanation mentioning agranulocytosis",
    category: "Psychopharmacology",
    part: "2",
    isPublic: true,
  });
  await add(bob, "bobPrivate", {
    text: "Lithium toxicity signs",
    options: { A: "Coarse tremor", B: "Clozapine-like sialorrhea" },
    category: "Bipolar Disorders",
    part: "1",
    isPublic: false,
  });
  await add(bob, "bobPublic", {
    text: "Lithium and the kidney: 50% of cases_ok",
    options: { A: "Nephrogenic DI", B: "Nothing" },
    category: "Bipolar Disorders",
    part: "1",
    isPublic: true,
  });
  await add(bob, "bobScript", {
    text: "<script>alert('x')</script> question",
    options: { A: "<b>bold</b>", B: "plain" },
    explanation: "",
    category: "",
    isPublic: true,
  });
});
afterAll(async () => {
  await h.close();
});

describe("search text", () => {
  it("matches text, options and explanation, case-insensitively", async () => {
    const search = (text: string) =>
      bob.caller.questions.search({ text }).then((p) => p.items.map((q) => q._id).sort());
    expect(await search("CLOZAPINE")).toEqual([ids.alicePublic, ids.bobPrivate].sort());
    expect(await search("nephrogenic")).toEqual([ids.bobPublic]);
    expect(await search("mentioning agranulocytosis")).toEqual([ids.alicePublic]);
    expect(await search("  lithium   KIDNEY ")).toEqual([ids.bobPublic]);
    expect(await search("kidney lithium")).toEqual([ids.bobPublic]);
  });

  it("treats %, _ and \\ as text, never as a pattern", async () => {
    const search = (who: TestUser, text: string) =>
      who.caller.questions.search({ text }).then((p) => p.items.map((q) => q._id));
    expect(await search(bob, "%")).toEqual([ids.bobPublic]);
    expect(await search(bob, "50%")).toEqual([ids.bobPublic]);
    expect(await search(bob, "_")).toEqual([ids.bobPublic]);
    expect(await search(bob, "s_ok")).toEqual([ids.bobPublic]);
    expect(await search(bob, "cases_o")).toEqual([ids.bobPublic]);
    expect(await search(bob, "c%k")).toEqual([]);
    expect(await search(bob, ".*")).toEqual([]);
    expect(await search(alice, "back\\slash")).toEqual([ids.alicePrivate]);
    expect(await search(bob, "\\")).toEqual([]);
    // Words under 3 characters have no trigram: they are matched row by row, still literally.
    expect(await search(bob, "50")).toEqual([ids.bobPublic]);
    expect(await search(bob, "KIDNEY 50")).toEqual([ids.bobPublic]);
    expect(await search(alice, "%_")).toEqual([]);
  });

  it("returns script text as plain text", async () => {
    const [q] = (await bob.caller.questions.search({ text: "<script>" })).items;
    expect(q?.text).toBe("<script>alert('x')</script> question");
  });

  it("escapes patterns and splits words", () => {
    expect(containsPattern("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
    expect(searchTerms("  Foo  bar foo\tBAZ ")).toEqual(["foo", "bar", "baz"]);
  });

  it("searches up to 8 distinct words and refuses more with a message, never dropping one", async () => {
    const eight = "lithium kidney and the 50% of cases_ok nephrogenic LITHIUM";
    expect(searchTerms(eight)).toHaveLength(8);
    const page = await bob.caller.questions.search({ text: eight });
    expect(page.items.map((q) => q._id)).toEqual([ids.bobPublic]);
    // A ninth word would have excluded the match: it is refused, not ignored.
    await expect(bob.caller.questions.search({ text: `${eight} absentword` })).rejects.toThrow(
      "Search for at most 8 words at a time",
    );
  });
});

describe("search never leaks another user's private question", () => {
  // Every word of Alice's private question, a wildcard, and nothing at all.
  const texts = [
    "",
    "SECRETWORD",
    "secret",
    "clozapine",
    "agranulocytosis",
    "weekly anc",
    "100%",
    "%",
    "_",
    "private",
    "a",
  ];
  const visibilities = ["all", "mine", "public"] as const;

  for (const visibility of visibilities) {
    it(`through createCaller, visibility=${visibility}, for every text`, async () => {
      for (const text of texts) {
        for (const filters of [{}, { part: "2" as const }, { category: "Psychopharmacology" }]) {
          const page = await bob.caller.questions.search({
            text,
            visibility,
            ...filters,
            pageSize: 100,
          });
          const found = page.items.map((q) => q._id);
          expect(found).not.toContain(ids.alicePrivate);
          expect(page.items.every((q) => q.isPublic || q.creator === bob.user.id)).toBe(true);
          // The count does not give it away either.
          expect(page.total).toBe(found.length);
        }
      }
    });

    it(`over REST, visibility=${visibility}, for every text`, async () => {
      for (const text of texts) {
        const res = await rest(
          bob,
          `/api/questions/search?text=${encodeURIComponent(text)}&visibility=${visibility}&pageSize=100`,
        );
        expect(res.statusCode).toBe(200);
        const body = res.json() as { _id: string; isPublic: boolean; creator: string }[];
        expect(body.map((q) => q._id)).not.toContain(ids.alicePrivate);
        expect(body.every((q) => q.isPublic || q.creator === bob.user.id)).toBe(true);
        expect(res.headers["x-total-count"]).toBe(String(body.length));
        expect(JSON.stringify(body)).not.toContain("SECRETWORD");
      }
    });
  }

  it("category alone and the plain list do not leak either", async () => {
    const byCategory = await rest(bob, "/api/questions/search?category=Psychopharmacology");
    expect(byCategory.json().map((q: { _id: string }) => q._id)).toEqual([ids.alicePublic]);
    const list = await rest(bob, "/api/questions?pageSize=100");
    expect(JSON.stringify(list.json())).not.toContain("SECRETWORD");
    // The owner does find it.
    const own = await rest(alice, "/api/questions/search?text=secretword&visibility=mine");
    expect(own.json().map((q: { _id: string }) => q._id)).toEqual([ids.alicePrivate]);
  });
});

describe("filters", () => {
  it("filters by visibility, part and category", async () => {
    const idsOf = async (input: Parameters<typeof bob.caller.questions.search>[0]) =>
      (await bob.caller.questions.search(input)).items.map((q) => q._id).sort();
    expect(await idsOf({ visibility: "mine" })).toEqual(
      [ids.bobPrivate, ids.bobPublic, ids.bobScript].sort(),
    );
    expect(await idsOf({ visibility: "public" })).toEqual(
      [ids.alicePublic, ids.bobPublic, ids.bobScript].sort(),
    );
    expect(await idsOf({ part: "2" })).toEqual([ids.alicePublic]);
    expect(await idsOf({ part: "all" as never, category: "Bipolar Disorders" })).toEqual(
      [ids.bobPrivate, ids.bobPublic].sort(),
    );
    expect(await idsOf({ category: "Uncategorized" })).toEqual([ids.bobScript]);
    expect(await idsOf({ text: "lithium", visibility: "public", part: "1" })).toEqual([
      ids.bobPublic,
    ]);
  });

  it("accepts REST query strings and refuses bad filters with a message", async () => {
    const ok = await rest(
      bob,
      "/api/questions/search?text=lithium&part=1&category=&visibility=mine",
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toHaveLength(2);
    for (const [query, message] of [
      ["visibility=everyone", "Visibility must be all, mine, private, program or public"],
      ["part=3", "Part must be 1 or 2"],
      ["page=0", "Page must be a positive whole number"],
      ["page=abc", "Page must be a positive whole number"],
      ["pageSize=101", "Page size must be between 1 and 100"],
      [`text=${"x".repeat(201)}`, "Search text must be at most 200 characters"],
      ["text=one+two+three+four+five+six+seven+eight+nine", "Search for at most 8 words at a time"],
    ] as const) {
      const res = await rest(bob, `/api/questions/search?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ message });
    }
  });
});

describe("pagination", () => {
  it("pages newest first with total and nextCursor, on tRPC and REST", async () => {
    const carol = await h.user({ username: "search_carol" });
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      const q = await carol.caller.questions.create(
        validQuestion({ text: `Paged question ${i}`, isPublic: false }) as never,
      );
      created.unshift(q._id);
    }
    const seen: string[] = [];
    let cursor: number | undefined = 1;
    const pages: number[] = [];
    while (cursor) {
      const page: Awaited<ReturnType<typeof carol.caller.questions.search>> =
        await carol.caller.questions.search({ text: "paged", pageSize: 3, cursor });
      expect(page.total).toBe(7);
      expect(page.page).toBe(cursor);
      pages.push(page.items.length);
      seen.push(...page.items.map((q) => q._id));
      cursor = page.nextCursor ?? undefined;
    }
    expect(pages).toEqual([3, 3, 1]);
    expect(seen).toEqual(created);

    const first = await rest(carol, "/api/questions/search?text=paged&pageSize=3");
    expect(first.headers["x-total-count"]).toBe("7");
    expect(first.headers["x-next-page"]).toBe("2");
    expect(first.headers.link).toBe(
      '</api/questions/search?text=paged&pageSize=3&page=2>; rel="next"',
    );
    const last = await rest(carol, "/api/questions/search?text=paged&pageSize=3&page=3");
    expect(last.json().map((q: { _id: string }) => q._id)).toEqual(created.slice(6));
    expect(last.headers["x-next-page"]).toBeUndefined();
    const beyond = await rest(carol, "/api/questions/search?text=paged&pageSize=3&page=9");
    expect(beyond.json()).toEqual([]);

    const list = await carol.caller.questions.list({ pageSize: 2 });
    expect(list.items).toHaveLength(2);
    expect(list.nextCursor).toBe(2);
    const restList = await rest(carol, "/api/questions?limit=5");
    expect(restList.json()).toHaveLength(5);
  });
});

describe("search reads option values, not their letters or JSON", () => {
  let erin: TestUser;
  beforeAll(async () => {
    erin = await h.user({ username: "search_erin" });
    // No 'a', 'b', quote or colon anywhere in what a user can read of this one.
    await add(erin, "erinPlain", {
      text: "Which drug to pick first?",
      options: { A: "Lithium", B: "Fluoxetine" },
      explanation: "SSRIs come first.",
      category: "Erin",
      isPublic: false,
    });
    await add(erin, "erinQuoted", {
      text: "How should the resident decline?",
      options: { A: 'Tell him to say "no" firmly', B: "Ignore him" },
      explanation: "",
      category: "Erin",
      isPublic: true,
    });
  });
  const mine = (text: string) =>
    erin.caller.questions
      .search({ text, category: "Erin", visibility: "mine" })
      .then((p) => p.items.map((q) => q._id));

  it("does not match every question on an option letter, a quote or a colon", async () => {
    expect(await mine("a")).toEqual([ids.erinQuoted]);
    expect(await mine("b")).toEqual([]);
    expect(await mine("A")).toEqual([ids.erinQuoted]);
    expect(await mine(":")).toEqual([]);
    expect(await mine("{")).toEqual([]);
    expect(await mine('"')).toEqual([ids.erinQuoted]);
    expect(await mine("lithium")).toEqual([ids.erinPlain]);
  });

  it("finds a quote inside an option as typed, through either matching path", async () => {
    expect(await mine('say "no"')).toEqual([ids.erinQuoted]);
    expect(await mine('"NO" FIRMLY')).toEqual([ids.erinQuoted]);
    // Another user's public search walks the trigram index (LIKE) rather than strpos.
    const page = await bob.caller.questions.search({ text: 'say "no"', visibility: "public" });
    expect(page.items.map((q) => q._id)).toEqual([ids.erinQuoted]);
    const res = await rest(
      bob,
      `/api/questions/search?text=${encodeURIComponent('"no" firmly')}&visibility=public`,
    );
    expect(res.json().map((q: { _id: string }) => q._id)).toEqual([ids.erinQuoted]);
  });

  it("keeps search_text in step with edits of the options", async () => {
    await erin.caller.questions.update({
      id: ids.erinPlain!,
      data: { options: { A: "Lithium", B: 'Valproate "VPA"' } },
    });
    expect(await mine('"vpa"')).toEqual([ids.erinPlain]);
    await erin.caller.questions.update({
      id: ids.erinPlain!,
      data: { options: { A: "Lithium", B: "Fluoxetine" } },
    });
    expect(await mine("vpa")).toEqual([]);
  });
});

describe("every way the search reads the bank gives the same page (decision 265)", () => {
  it("walking newest first, stopping at the probe and the trigram index agree, ties and pages included", async () => {
    const dave = await h.user({ username: "walk_dave" });
    const erin = await h.user({ username: "walk_erin" });
    // Words only these questions hold: one in every other, one in every fifth, one in a single question,
    // a short one (no trigram), and one in none.
    const words = (i: number) =>
      [
        i % 2 === 0 ? "walkalpha" : "",
        i % 5 === 0 ? "walkbeta" : "",
        i === 7 ? "walkgamma" : "",
        i % 3 === 0 ? "zq" : "",
      ].join(" ");
    const made: { id: string; day: number }[] = [];
    for (let i = 0; i < 24; i++) {
      // Dave's: three a day (ties broken by id), one in four private; Erin's (the viewer's) own.
      const who = i % 6 === 5 ? erin : dave;
      const q = await who.caller.questions.create(
        validQuestion({
          text: `Walkword ${i} ${words(i)}`,
          part: i % 4 === 1 ? "2" : "1",
          category: i % 7 === 0 ? "" : "Bipolar Disorders",
          isPublic: who === erin ? i % 12 === 5 : i % 4 !== 3,
        }) as never,
      );
      made.push({ id: q._id, day: Math.floor(i / 3) });
    }
    for (const { id, day } of made) {
      await h.db.db.execute(
        sql`update questions set created_at = '2026-01-01T00:00:00Z'::timestamptz + ${day} * interval '1 day' where id = ${id}`,
      );
    }
    const ways = [
      {},
      { walkRows: 100_000, probeRows: 50 }, // the probe sends the walk, which fills the branch
      { walkRows: 10, probeRows: 1 }, // the walk runs but ends early: the trigram index
      { walkRows: 3, probeRows: 2 }, // the probe says rare: the trigram index
      { walkRows: 4, probeRows: 0 }, // the probe finds nothing: the trigram index
    ];
    const texts = [
      "walkalpha",
      "walkalpha walkbeta",
      "walkgamma",
      "walkdelta",
      "walkword",
      "zq",
      "walkword zq",
    ];
    for (const visibility of ["all", "mine", "public"] as const) {
      for (const text of texts) {
        for (const filters of [
          {},
          { part: "2" },
          { category: "Bipolar Disorders" },
          { category: UNCATEGORIZED },
          { type: "multipleChoice", part: "1" },
          { type: "flashcard" },
        ] as const) {
          // With a count cap of 3 a branch fills, and the walk (not the index) answers.
          for (const [cursor, countCap] of [
            [1, undefined],
            [2, undefined],
            [4, undefined],
            [1, 3],
            [2, 3],
            [3, 1],
          ] as const) {
            const input = { text, visibility, ...filters, pageSize: 4, cursor };
            const pages = [];
            for (const way of ways) {
              pages.push(await searchQuestions(h.db.db, erin.user.id, input, { ...way, countCap }));
            }
            const ids = pages.map((p) => ({
              ids: p.items.map((q) => q._id),
              total: p.total,
              capped: p.totalCapped,
              next: p.nextCursor,
            }));
            for (const other of ids.slice(1))
              expect(other, JSON.stringify({ ...input, countCap })).toEqual(ids[0]);
          }
        }
      }
    }
    // And the page is the one the rule gives: visible matches, newest first, id breaking ties.
    const rows = await queryRows<{
      id: string;
      creator_id: string;
      is_public: boolean;
      search_text: string;
      day: number;
    }>(
      h.db.db,
      sql`select id, creator_id, is_public, search_text,
                 extract(day from created_at - '2026-01-01T00:00:00Z'::timestamptz)::int as day
            from questions where search_text like '%walkword%'`,
    );
    const expected = rows
      .filter(
        (r) =>
          (r.creator_id === erin.user.id || r.is_public) && r.search_text.includes("walkalpha"),
      )
      .sort((a, b) => b.day - a.day || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    for (const way of ways) {
      const all = await searchQuestions(
        h.db.db,
        erin.user.id,
        { text: "walkalpha", pageSize: 100 },
        { ...way, countCap: 3 },
      );
      expect(all.items.map((q) => q._id)).toEqual(expected);
      expect(all.total).toBe(expected.length);
    }
  }, 120_000);
});
