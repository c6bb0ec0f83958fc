import type { Page } from "@playwright/test";
import { expect, test, trpcMutation } from "./fixtures";

/** Issue 19: switch the scheduler in Settings › Study and see the next interval change. */
const stamp = Date.now().toString(36);

async function answerAndReadEasy(page: Page): Promise<string> {
  await page.goto("/study");
  await page.getByRole("button", { name: "Start Studying" }).click();
  await page.getByRole("radio", { name: "B. Dopamine" }).click();
  await page.getByRole("button", { name: "Check Answer" }).click();
  await expect(page.getByText("Correct! Well done.")).toBeVisible();
  const easy = page.getByTestId("next-interval-2");
  await expect(easy).toBeVisible();
  return easy.innerText();
}

async function chooseScheduler(page: Page, label: "SM-2" | "FSRS") {
  await page.goto("/settings?tab=study");
  await page.getByRole("radio", { name: new RegExp(`^${label}`) }).check();
  await expect(page.getByText("Study settings saved")).toBeVisible();
}

test("switching the scheduler changes the next interval shown on the rating buttons", async ({
  page,
  user,
}) => {
  test.setTimeout(120_000);
  expect(user.username).toBeTruthy();
  await trpcMutation(page.request, "questions.create", {
    text: `Which neurotransmitter is depleted in Parkinson disease? [${stamp}]`,
    options: { A: "Serotonin", B: "Dopamine", C: "GABA", D: "Glutamate", E: "Acetylcholine" },
    correctAnswer: "B",
    category: "Neuroscience",
    part: "1",
    year: 2024,
    number: 1,
    isPublic: false,
  });

  await page.goto("/settings?tab=study");
  // New accounts start on FSRS, each setting explained in one sentence.
  await expect(page.getByRole("radio", { name: /^FSRS/ })).toBeChecked();
  await expect(
    page.getByText("The chance of remembering a question when it comes back"),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Optimize" })).toBeDisabled();
  // Issue 31: the page says which parameters are in use, the defaults included.
  await expect(page.getByText("The default parameters are in use.")).toBeVisible();

  await chooseScheduler(page, "SM-2");
  expect(await answerAndReadEasy(page)).toBe("in 1 day");

  // The answer was never rated, so the question is still due after the switch.
  await chooseScheduler(page, "FSRS");
  const fsrsEasy = await answerAndReadEasy(page);
  expect(fsrsEasy).not.toBe("in 1 day");
  expect(fsrsEasy).toMatch(/^in \d+ days$/);
});
