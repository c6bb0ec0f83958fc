import type { Locator, Page } from "@playwright/test";
import { expect, serviceWorkerReady, test, trpcMutation, trpcQuery } from "./fixtures";
import { waitForOfflineCopy } from "./offline-copy";

/**
 * Issue 17 in Study, on a phone (375 px): a flashcard shown front first, its back revealed with Space
 * and rated with a key (the intervals on the four buttons), and a multiple-choice question showing its
 * image below the stem. The flashcard and the image are made through the server's own API, as the
 * Anki import makes them (imports.uploadMedia, questions.createFlashcard, imports.commit).
 */

const stamp = Date.now().toString(36);
// A 2×2 PNG: what the server accepts only after reading its type from the bytes.
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";
const FRONT = `Which serum level is monitored for lithium? [${stamp}]`;
const BACK = `Trough level 12 hours after the last dose [${stamp}]`;
const STEM = `Which structure is shown in the image? [${stamp}]`;

async function imageLoaded(img: Locator) {
  await expect(img).toBeVisible();
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test("a flashcard studied and rated with the keyboard, and an image question, on a 375 px phone", async ({
  page,
  user: _user,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 812 });
  const { sha256 } = await trpcMutation<{ sha256: string }>(page.request, "imports.uploadMedia", {
    data: PNG_BASE64,
  });
  const card = await trpcMutation<{ _id: string }>(page.request, "questions.createFlashcard", {
    front: `<p>${FRONT}</p>`,
    back: `<p><b>${BACK}</b></p><p><img src="${sha256}"></p>`,
    category: "Psychopharmacology",
    part: "1",
    year: 2024,
  });
  await trpcMutation(page.request, "imports.commit", {
    items: [
      {
        action: "create",
        question: {
          text: STEM,
          options: { A: "Hippocampus", B: "Amygdala", C: "Caudate", D: "Thalamus", E: "Pons" },
          correctAnswer: "A",
          category: "Neuroscience",
          part: "1",
          year: 2024,
          images: [sha256],
        },
      },
    ],
  });

  await page.goto("/study");
  await expect(page.getByTestId("overview-due")).toHaveText("2");
  await page.getByRole("button", { name: "Start Studying" }).click();

  for (let i = 1; i <= 2; i++) {
    await expect(page.getByRole("heading", { name: `Question ${i}/2` })).toBeVisible();
    if (await page.getByTestId("flashcard").isVisible()) {
      await expect(page.getByTestId("flashcard-front")).toContainText(FRONT);
      await expect(page.getByTestId("flashcard-back")).toHaveCount(0);
      await noSidewaysScroll(page);
      // Space reveals the back (with its image from /api/media), then the four ratings.
      await page.keyboard.press("Space");
      await expect(page.getByTestId("flashcard-back")).toContainText(BACK);
      await imageLoaded(page.getByTestId("flashcard-back").locator("img"));
      for (const label of ["Again", "Hard", "Good", "Easy"]) {
        await expect(page.getByRole("button", { name: new RegExp(`^${label}`) })).toBeVisible();
      }
      // Each button shows when the card comes back, as the server computes it.
      const { nextIntervals } = await trpcQuery<{
        nextIntervals: Record<string, number>;
      }>(page.request, "study.nextIntervals", { questionId: card._id });
      await expect(page.getByTestId("flashcard-interval-good")).toHaveText(
        nextIntervals.good === 1 ? "in 1 day" : `in ${nextIntervals.good} days`,
      );
      await expect(page.getByTestId("flashcard-interval-again")).not.toBeEmpty();
      await noSidewaysScroll(page);
      // 3 = Good: the next question (or the summary) at once.
      await page.keyboard.press("3");
    } else {
      await expect(page.getByTestId("question-text")).toHaveText(STEM);
      await imageLoaded(page.getByTestId("question-images").locator("img"));
      await noSidewaysScroll(page);
      await page.keyboard.press("a");
      await page.keyboard.press("Enter");
      await expect(page.getByText("Correct! Well done.")).toBeVisible();
      await page.keyboard.press("2");
    }
  }
  await expect(page.getByText("Session Complete")).toBeVisible();

  // On the server: the flashcard's rating is a correct review, and both are rescheduled.
  await expect
    .poll(async () => {
      const s = await trpcQuery<{ totalStudied: number; correctAnswers: number; dueCount: number }>(
        page.request,
        "stats.summary",
      );
      return [s.totalStudied, s.correctAnswers, s.dueCount];
    })
    .toEqual([2, 2, 0]);
  const stored = await trpcQuery<{ studyData: { repetitions: number; lapses: number }[] }>(
    page.request,
    "questions.get",
    { id: card._id },
  );
  expect(stored.studyData[0]).toMatchObject({ repetitions: 1, lapses: 0 });
});

test("a flashcard rated Again offline syncs once as an incorrect review", async ({
  page,
  context,
  user: _user,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await trpcMutation(page.request, "study.updateScheduler", { scheduler: "sm2" });
  const card = await trpcMutation<{ _id: string }>(page.request, "questions.createFlashcard", {
    front: `<p>Offline front [${stamp}]</p>`,
    back: `<p>Offline back [${stamp}]</p>`,
    category: "Ethics",
    part: "2",
    year: 2023,
  });
  await page.goto("/study");
  await expect(page.getByText("Today's Study Overview")).toBeVisible();
  await waitForOfflineCopy(page, 1);
  expect(await serviceWorkerReady(page)).toBe("activated");

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Start Studying" }).click();
  await expect(page.getByTestId("flashcard-front")).toContainText(`Offline front [${stamp}]`);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("flashcard-back")).toContainText(`Offline back [${stamp}]`);
  // SM-2 on a new card: every rating brings it back tomorrow; computed on the device.
  await expect(page.getByTestId("flashcard-interval-again")).toHaveText("in 1 day");
  await page.keyboard.press("1");
  await expect(page.getByText("Offline — 1 answer waiting to sync")).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText("1 answer synced.")).toBeVisible({ timeout: 15_000 });
  const { data } = await trpcQuery<{
    data: {
      reviews: { questionId: string; isCorrect: boolean; difficulty: number | null }[];
      studyStates: { questionId: string; lapses: number; repetitions: number }[];
    };
  }>(page.request, "users.exportStudyData");
  expect(data.reviews).toEqual([
    expect.objectContaining({ questionId: card._id, isCorrect: false, difficulty: null }),
  ]);
  expect(data.studyStates).toEqual([
    expect.objectContaining({ questionId: card._id, lapses: 1, repetitions: 0 }),
  ]);
});
