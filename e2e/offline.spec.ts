import type { Page } from "@playwright/test";
import {
  expect,
  logOutViaHeader,
  makeUser,
  registerViaApi,
  serviceWorkerReady,
  signInViaUi,
  test,
  trpcMutation,
  trpcQuery,
} from "./fixtures";
import { waitForOfflineCopy } from "./offline-copy";

/** Issue 18: studying with the connection off, and every answer arriving once. */

const stamp = Date.now().toString(36);

interface StudyExport {
  reviews: {
    questionId: string;
    isCorrect: boolean;
    difficulty: number | null;
    reviewedAt: string;
  }[];
  studyStates: {
    questionId: string;
    interval: number;
    repetitions: number;
    lapses: number;
    nextReview: string | null;
    lastReviewed: string | null;
  }[];
}

async function studyExport(page: Page): Promise<StudyExport> {
  return (await trpcQuery<{ data: StudyExport }>(page.request, "users.exportStudyData")).data;
}

async function addQuestions(page: Page, n: number): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const text = `Offline question ${i + 1}: which option is right? [${stamp}-${i}]`;
    const q = await trpcMutation<{ _id: string }>(page.request, "questions.create", {
      text,
      options: { A: "Wrong one", B: "Right one", C: "Another wrong", D: "Still wrong" },
      correctAnswer: "B",
      category: "Neuroscience",
      part: "1",
      year: 2024,
      explanation: `Explained offline ${i + 1}.`,
    });
    texts.set(text, q._id);
  }
  return texts;
}

async function offlineDatabases(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await indexedDB.databases())
      .map((d) => d.name ?? "")
      .filter((name) => name.startsWith("prite-offline-")),
  );
}

test("ten questions studied offline arrive once, with the states the server computes", async ({
  page,
  context,
  user,
}) => {
  void user;
  test.setTimeout(90_000);
  await trpcMutation(page.request, "study.updateScheduler", { scheduler: "sm2" });
  const ids = await addQuestions(page, 12);

  await page.goto("/study");
  await expect(page.getByText("Today's Study Overview")).toBeVisible();
  await waitForOfflineCopy(page, 12);
  expect(await serviceWorkerReady(page)).toBe("activated");

  // With the connection off, a reload opens the app from the service worker and the device's copy.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByText("Today's Study Overview")).toBeVisible();
  await expect(page.getByTestId("overview-due")).toHaveText("12");
  await page.getByRole("button", { name: "Start Studying" }).click();
  await expect(page.getByRole("heading", { name: "Question 1/12" })).toBeVisible();

  const answered: { id: string; correct: boolean }[] = [];
  for (let i = 1; i <= 10; i++) {
    await expect(page.getByRole("heading", { name: `Question ${i}/12` })).toBeVisible();
    const text = await page.getByTestId("question-text").innerText();
    const id = ids.get(text)!;
    expect(id).toBeTruthy();
    const correct = i % 4 !== 3;
    await page.keyboard.press(correct ? "b" : "a");
    await page.keyboard.press("Enter");
    await expect(
      page.getByText(correct ? "Correct! Well done." : "Not quite right."),
    ).toBeVisible();
    // The explanation comes from the copy on the device.
    await expect(page.getByText(/Explained offline \d+\./)).toBeVisible();
    await page.keyboard.press("2");
    answered.push({ id, correct });
    await expect(
      page.getByText(`Offline — ${i} ${i === 1 ? "answer" : "answers"} waiting to sync`),
    ).toBeVisible();
  }
  // Nothing reached the server while offline.
  expect((await studyExport(page)).reviews).toHaveLength(0);

  await context.setOffline(false);
  await expect(page.getByText("10 answers synced.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/waiting to sync/)).toHaveCount(0);

  const data = await studyExport(page);
  expect(data.reviews).toHaveLength(10);
  expect(new Set(data.reviews.map((r) => r.questionId))).toEqual(
    new Set(answered.map((a) => a.id)),
  );
  for (const a of answered) {
    const review = data.reviews.find((r) => r.questionId === a.id)!;
    expect(review).toMatchObject({ isCorrect: a.correct, difficulty: a.correct ? 1 : null });
    const state = data.studyStates.find((s) => s.questionId === a.id)!;
    // SM-2 on a new card: a right answer rated Medium comes back in a day; a wrong one is a lapse.
    if (a.correct) {
      expect(state).toMatchObject({ repetitions: 1, interval: 1, lapses: 0 });
      expect(Date.parse(state.nextReview!) - Date.parse(review.reviewedAt)).toBe(86_400_000);
    } else {
      expect(state).toMatchObject({ repetitions: 0, lapses: 1 });
    }
  }
  // Going offline and online again sends nothing twice.
  await context.setOffline(true);
  await context.setOffline(false);
  await page.waitForTimeout(1_000);
  expect((await studyExport(page)).reviews).toHaveLength(10);
});

test("signing out needs a connection, then erases the offline copy and the remembered user", async ({
  page,
  context,
  user,
}) => {
  void user;
  await addQuestions(page, 3);
  await page.goto("/study");
  await waitForOfflineCopy(page, 3);
  expect(await offlineDatabases(page)).toHaveLength(1);

  await context.setOffline(true);
  await page.getByRole("banner").getByRole("button", { name: "Log Out" }).click();
  await expect(page.getByText("Signing out needs a connection.")).toBeVisible();
  expect(await offlineDatabases(page)).toHaveLength(1);

  await context.setOffline(false);
  await logOutViaHeader(page);
  expect(await offlineDatabases(page)).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem("prite-offline-user"))).toBeNull();
});

test("another user signing in on the device erases the previous user's offline copy", async ({
  page,
  context,
  user,
  newApiContext,
}) => {
  void user;
  await addQuestions(page, 2);
  await page.goto("/study");
  await waitForOfflineCopy(page, 2);
  const first = await offlineDatabases(page);
  expect(first).toHaveLength(1);

  // The first user's session ends without signing out (it expired); someone else signs in.
  const next = makeUser({ prefix: "next" });
  await registerViaApi(await newApiContext(), next);
  await context.clearCookies();
  await signInViaUi(page, next);
  await expect(page.getByRole("banner").getByText(`Signed in as ${next.username}`)).toBeVisible();
  await expect.poll(() => offlineDatabases(page)).not.toContain(first[0]);
  const remembered = await page.evaluate(() => localStorage.getItem("prite-offline-user"));
  expect(JSON.parse(remembered!)).toMatchObject({ username: next.username });
});
