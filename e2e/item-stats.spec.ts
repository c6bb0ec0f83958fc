import { chooseSelectOption, expect, seriousAxeViolations, test, trpcMutation } from "./fixtures";

// Issue 36 item 5 at a phone's width: the owner lists their most missed question in Browse and opens
// its statistics.
test.use({ viewport: { width: 375, height: 740 } });

test("the owner finds the most missed question and reads its statistics", async ({
  page,
  user,
}) => {
  void user;
  const tag = Date.now().toString(36);
  const make = (text: string) =>
    trpcMutation<{ _id: string }>(page.request, "questions.create", {
      text,
      options: { A: "Haloperidol", B: "Clozapine", C: "Lithium" },
      correctAnswer: "B",
      category: `Stats ${tag}`,
      part: "1",
      year: 2024,
    });
  const missed = await make(`Which drug treats resistant schizophrenia? ${tag}`);
  const known = await make(`Which drug needs absolute neutrophil counts? ${tag}`);
  for (let i = 0; i < 5; i++) {
    await trpcMutation(page.request, "study.answer", {
      questionId: missed._id,
      selected: [i < 4 ? "A" : "B"],
      timeSpentMs: 4000,
    });
    await trpcMutation(page.request, "study.answer", {
      questionId: known._id,
      selected: ["B"],
      timeSpentMs: 2000,
    });
  }

  await page.goto("/browse");
  await expect(page.getByRole("heading", { level: 1, name: "Browse Questions" })).toBeVisible();
  await chooseSelectOption(page.getByLabel("Category", { exact: true }), `Stats ${tag}`);
  await chooseSelectOption(page.getByLabel("Statistics", { exact: true }), "Most missed");
  await page.getByRole("button", { name: "Search", exact: true }).click();

  const cards = page.getByTestId("question-card");
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toHaveAttribute("data-question-id", missed._id);
  await expect(cards.first().getByTestId("stats-brief")).toHaveText("Answered 5 · 20% correct");
  await expect(cards.nth(1).getByTestId("stats-brief")).toHaveText("Answered 5 · 100% correct");

  await cards.first().getByRole("button", { name: "Statistics" }).click();
  const panel = cards.first().getByTestId("item-stats");
  await expect(panel.getByTestId("stats-answered")).toHaveText("5");
  await expect(panel.getByTestId("stats-correct")).toHaveText("20%");
  await expect(panel.getByTestId("stats-time")).toHaveText("4.0 s");
  await expect(panel.getByTestId("stats-discrimination")).toHaveText("—");
  const options = panel.getByTestId("stats-option");
  await expect(options).toHaveCount(3);
  for (const [i, share] of ["80%", "20%", "0%"].entries()) {
    await expect(options.nth(i)).toContainText(share);
  }
  // Nothing wider than the phone's screen.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
});
