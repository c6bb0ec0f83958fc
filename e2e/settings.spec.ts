import fs from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  chooseSelectOption,
  expect,
  expectDashboard,
  fillRegisterForm,
  makeUser,
  signInViaUi,
  test,
  trpcMutation,
  trpcQuery,
  typedPassword,
} from "./fixtures";

// Issue 6: Settings (profile, privacy, data management, PRITE scores, account) and onboarding.

const thisYear = new Date().getFullYear();

async function addQuestion(request: APIRequestContext, text: string) {
  return trpcMutation<{ _id: string; isPublic: boolean; contributor: string }>(
    request,
    "questions.create",
    {
      text,
      options: { A: "Lithium", B: "Sertraline", C: "Haloperidol" },
      correctAnswer: "A",
      category: "Bipolar Disorders",
      part: "1",
      year: thisYear,
      number: 12,
    },
  );
}

/** Answers one question through the study API, so there is study progress to export or reset. */
async function studyOnce(request: APIRequestContext, questionId: string) {
  const started = await trpcMutation<{ session: { id: string } | null }>(
    request,
    "study.startSession",
  );
  await trpcMutation(request, "study.answer", {
    questionId,
    selected: ["A"],
    timeSpentMs: 3000,
    sessionId: started.session?.id,
  });
  await trpcMutation(request, "study.rate", { questionId, difficulty: 2 });
}

async function chooseOption(page: Page, label: string | RegExp, option: string) {
  await chooseSelectOption(page.getByLabel(label), option);
}

test("after registering, the PRITE scores form is offered once and can be skipped or used", async ({
  page,
}) => {
  const user = makeUser({ prefix: "onboard" });
  await page.goto("/register");
  await fillRegisterForm(page, user);
  await page.getByRole("button", { name: "Register", exact: true }).click();

  await expect(page).toHaveURL(/\/settings\?tab=prite-scores&onboarding=true$/);
  await expect(page.getByRole("heading", { name: "Welcome to PRITE Study!" })).toBeVisible();
  await page.getByRole("button", { name: "Save Scores" }).click();
  await expect(page.getByRole("alert")).toContainText("Year and Overall Percentile are required");

  await chooseOption(page, "Year", String(thisYear - 1));
  await page.getByLabel("Overall Percentile").fill("64");
  await page.getByRole("button", { name: "Save Scores" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "PRITE scores saved successfully" }),
  ).toBeVisible();
  await expectDashboard(page, user);

  // Offered once: the same link now opens the ordinary tab, with the score saved.
  await page.goto("/settings?tab=prite-scores&onboarding=true");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Welcome to PRITE Study!" })).toHaveCount(0);
  await expect(page.getByRole("table", { name: "PRITE scores" })).toContainText("64%");
});

test("profile: edit and save; the username cannot change", async ({ page, user }) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const username = page.getByLabel("Username");
  await expect(username).toHaveValue(user.username);
  await expect(username).toHaveAttribute("readonly", "");
  await expect(page.getByText("Username cannot be changed")).toBeVisible();
  await expect(page.getByLabel("Display Name")).toHaveAttribute(
    "placeholder",
    "Enter your display name",
  );
  await expect(page.getByLabel("Institution")).toHaveAttribute(
    "placeholder",
    "Your training institution",
  );

  const email = `${user.username}.new@example.test`;
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Display Name").fill("Dr. Test Resident");
  await chooseOption(page, "PGY Level", "Fellow");
  await chooseOption(page, "Specialty", "Child Psychiatry");
  await page.getByLabel("Institution").fill("Riverside Medical Center");
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Profile updated successfully" }),
  ).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Display Name")).toHaveValue("Dr. Test Resident");
  await expect(page.getByLabel("PGY Level")).toHaveText("Fellow");
  await expect(page.getByLabel("Specialty")).toHaveText("Child Psychiatry");
  await expect(page.getByLabel("Institution")).toHaveValue("Riverside Medical Center");

  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByRole("alert")).toContainText("Please enter a valid email address");
});

test("privacy: toggles save at once, and a failed save puts the toggle back", async ({
  page,
  user,
}) => {
  await page.goto("/settings?tab=privacy");
  await expect(page.getByText("About Your Data")).toBeVisible();
  await expect(page.getByText(/not shared with third parties/)).toBeVisible();
  await expect(page.getByText("Make your contributions visible to other users")).toBeVisible();

  const publicProfile = page.getByRole("switch", { name: "Public Profile" });
  const share = page.getByRole("switch", { name: "Share Anonymous Usage Data" });
  await expect(publicProfile).not.toBeChecked();
  await publicProfile.click();
  await expect(publicProfile).toBeChecked();
  await expect(
    page.getByRole("status").filter({ hasText: "Settings updated successfully" }),
  ).toBeVisible();
  await page.reload();
  await expect(publicProfile).toBeChecked();
  await expect(share).not.toBeChecked();

  // Public Profile on: a new question starts public and shows the username as contributor.
  const q = await addQuestion(page.request, "Which drug needs level monitoring?");
  expect(q.isPublic).toBe(true);
  expect(q.contributor).toBe(user.username);

  await page.route("**/trpc/users.updateSettings**", (route) => route.abort());
  await share.click();
  await expect(page.getByRole("alert")).toContainText("Failed to update settings");
  await expect(share).not.toBeChecked();
  await page.unroute("**/trpc/users.updateSettings**");
  await page.reload();
  await expect(share).not.toBeChecked();
  await expect(publicProfile).toBeChecked();
});

test("data management: both exports download complete, pretty JSON files", async ({
  page,
  user,
}) => {
  const question = await addQuestion(
    page.request,
    "Which neurotransmitter is low in Parkinson disease?",
  );
  await studyOnce(page.request, question._id);
  await trpcMutation(page.request, "scores.create", {
    year: String(thisYear - 1),
    overallPercentile: 55,
  });

  await page.goto("/settings?tab=data");
  await expect(page.getByRole("heading", { name: "Data Management" })).toBeVisible();
  const stamp = new Date().toLocaleDateString("en-CA", { timeZone: "America/New_York" });

  const studyDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export Study Data" }).click();
  const studyFile = await studyDownload;
  expect(studyFile.suggestedFilename()).toBe(`prite_study_data_${stamp}.json`);
  await expect(
    page.getByRole("status").filter({ hasText: "Study data exported successfully" }),
  ).toBeVisible();
  const studyText = fs.readFileSync((await studyFile.path())!, "utf8");
  expect(studyText).toContain('\n  "user": {');
  const study = JSON.parse(studyText);
  expect(study.user).toMatchObject({ username: user.username, settings: { publicProfile: false } });
  expect(study.studyStates).toEqual([expect.objectContaining({ questionId: question._id })]);
  expect(study.reviews).toEqual([
    expect.objectContaining({ questionId: question._id, isCorrect: true, difficulty: 2 }),
  ]);
  expect(study.studySessions).toHaveLength(1);
  expect(study.priteScores).toEqual([
    expect.objectContaining({ year: String(thisYear - 1), overallPercentile: 55 }),
  ]);
  expect(study.answerKeys).toEqual([]);

  const questionsDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export My Questions" }).click();
  const questionsFile = await questionsDownload;
  expect(questionsFile.suggestedFilename()).toBe(`prite_questions_${stamp}.json`);
  await expect(
    page.getByRole("status").filter({ hasText: "Questions exported successfully" }),
  ).toBeVisible();
  const questionsText = fs.readFileSync((await questionsFile.path())!, "utf8");
  expect(questionsText.startsWith("[\n  {")).toBe(true);
  const questions = JSON.parse(questionsText);
  expect(questions).toEqual([
    expect.objectContaining({
      _id: question._id,
      text: "Which neurotransmitter is low in Parkinson disease?",
      correctAnswer: "A",
      category: "Bipolar Disorders",
    }),
  ]);
});

test("data management: reset study progress after confirming; questions stay", async ({
  page,
  user,
}) => {
  const question = await addQuestion(page.request, "Which test screens for delirium?");
  await studyOnce(page.request, question._id);

  await page.goto("/settings?tab=data");
  await page.getByRole("button", { name: "Reset Study Progress" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(
    "Are you sure you want to reset all your study progress? This cannot be undone.",
  );
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const before = await trpcQuery<{ data: { reviews: unknown[] } }>(
    page.request,
    "users.exportStudyData",
  );
  expect(before.data.reviews).toHaveLength(1);

  await page.getByRole("button", { name: "Reset Study Progress" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Reset" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Study progress reset successfully" }),
  ).toBeVisible();
  // The page reloads 1.5 s later.
  await page.waitForEvent("load", { timeout: 5000 });
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const { data } = await trpcQuery<{ data: Record<string, unknown[]> }>(
    page.request,
    "users.exportStudyData",
  );
  expect(data.reviews).toEqual([]);
  expect(data.studyStates).toEqual([]);
  expect(data.studySessions).toEqual([]);
  const mine = await trpcQuery<{ questions: { _id: string }[] }>(
    page.request,
    "users.exportQuestions",
  );
  expect(mine.questions.map((q) => q._id)).toEqual([question._id]);
  expect(user.username).toBeTruthy();
});

test("PRITE scores: three years, summary and chart, edit one, delete one", async ({
  page,
  user,
}) => {
  // Three forms, a chart, an edit and a delete: 20 s on a busy machine.
  test.setTimeout(120_000);
  expect(user.username).toBeTruthy();

  // The chart library is not part of the first page load.
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto("/settings?tab=prite-scores");
  await expect(page.getByRole("heading", { name: "PRITE Score History" })).toBeVisible();
  await expect(
    page.getByText(
      "You haven't added any PRITE scores yet. Adding your scores helps track your progress over time.",
    ),
  ).toBeVisible();
  expect(scripts.some((url) => url.includes("score-trend-chart"))).toBe(false);

  const entries = [
    { year: thisYear - 2, overall: "42", psychiatry: "50", neuro: "30", soma: "", growth: "20" },
    { year: thisYear - 1, overall: "58", psychiatry: "61", neuro: "", soma: "60", growth: "30" },
    { year: thisYear, overall: "81", psychiatry: "85", neuro: "72", soma: "55", growth: "30" },
  ];
  for (const [i, e] of entries.entries()) {
    await page
      .getByRole("button", { name: i === 0 ? "Add Your PRITE Scores" : "Add New Score" })
      .click();
    await expect(page.getByRole("button", { name: "Back to Score History" })).toBeVisible();
    await chooseOption(page, "Year", String(e.year));
    await page.getByLabel("Overall Percentile").fill(e.overall);
    await page.getByLabel(/^Psychiatry Percentile/).fill(e.psychiatry);
    await page.getByLabel(/^Neuroscience Percentile/).fill(e.neuro);
    await page.getByLabel(/^Somatic Percentile/).fill(e.soma);
    await page.getByLabel(/^Growth Percentile/).fill(e.growth);
    if (i === 2) {
      // Other input is ignored: letters and a third digit never reach the field.
      await page.getByLabel(/^Growth Percentile/).pressSequentially("x9");
      await expect(page.getByLabel(/^Growth Percentile/)).toHaveValue("30");
      await page.getByRole("button", { name: "Add Section" }).click();
      await page.getByLabel("Section 1 Name").fill("Child Psychiatry");
      await page.getByLabel("Percentile", { exact: true }).fill("77");
      await page.getByLabel(/^Notes/).fill("Studied with the question bank daily.");
    }
    await page.getByRole("button", { name: "Save Scores" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "PRITE scores saved successfully" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "PRITE Score History" })).toBeVisible();
  }

  const summary = page.getByTestId("score-improvement");
  const summaryCell = (label: string) =>
    summary.locator("dl > div", { has: page.locator("dt", { hasText: label }) }).locator("dd");
  await expect(summary.getByRole("heading", { name: "2-Year Improvement" })).toBeVisible();
  // Overall 42 → 81, Psychiatry 50 → 85, Neuroscience 30 → 72, Somatic '' → 55 (N/A), Growth 20 → 30.
  for (const [label, value, color] of [
    ["Overall", "+39", "text-success"],
    ["Psychiatry", "+35", "text-success"],
    ["Neuroscience", "+42", "text-success"],
    ["Somatic", "N/A", "text-muted-foreground"],
    ["Growth", "+10", "text-success"],
  ] as const) {
    const cell = summaryCell(label);
    await expect(cell).toHaveText(value);
    await expect(cell).toHaveClass(new RegExp(color));
  }
  const chart = page.getByTestId("score-trend-chart");
  await expect(chart).toBeVisible();
  expect(scripts.some((url) => url.includes("score-trend-chart"))).toBe(true);
  // One band-coloured point per value: 3 overall, 3 psychiatry, 2 neuroscience, 2 somatic, 3 growth.
  await expect(chart.locator("circle[data-band-value]")).toHaveCount(13);
  await expect(chart.locator('circle[data-band-value="81"]')).toHaveAttribute(
    "fill",
    "var(--success)",
  );
  await expect(chart.locator('circle[data-band-value="42"]')).toHaveAttribute(
    "fill",
    "var(--warning)",
  );

  const table = page.getByRole("table", { name: "PRITE scores" });
  await expect(table.getByRole("row")).toHaveCount(4);
  const row = (year: number) => table.getByRole("row").filter({ hasText: String(year) });
  await expect(row(thisYear - 2)).toContainText("42%");
  await expect(
    row(thisYear - 2)
      .getByRole("cell")
      .nth(4),
  ).toHaveText("-"); // Somatic missing
  await expect(
    row(thisYear - 1)
      .getByRole("cell")
      .nth(3),
  ).toHaveText("-"); // Neuroscience missing
  await expect(page.getByRole("table", { name: "Additional Sections" })).toContainText(
    "Child Psychiatry",
  );
  await expect(page.getByRole("table", { name: "Additional Sections" })).toContainText("77%");
  await expect(page.getByText(`${thisYear} PRITE Notes:`)).toBeVisible();
  await expect(page.getByText("Studied with the question bank daily.")).toBeVisible();

  // Edit the middle year.
  await page.getByRole("button", { name: `Edit ${thisYear - 1} score` }).click();
  await expect(page.getByLabel("Overall Percentile")).toHaveValue("58");
  await page.getByLabel("Overall Percentile").fill("63");
  await page.getByRole("button", { name: "Save Scores" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "PRITE scores saved successfully" }),
  ).toBeVisible();
  await expect(row(thisYear - 1)).toContainText("63%");

  // Delete the first year: asked first; the summary now spans one year.
  await page.getByRole("button", { name: `Delete ${thisYear - 2} score` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Are you sure you want to delete this score record?");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Score deleted successfully" }),
  ).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(summary.getByRole("heading", { name: "1-Year Improvement" })).toBeVisible();
  // 1 year: Overall 63 → 81, Somatic 60 → 55 (red), Growth 30 → 30 (grey).
  for (const [label, value, color] of [
    ["Overall", "+18", "text-success"],
    ["Somatic", "-5", "text-destructive"],
    ["Growth", "0", "text-muted-foreground"],
  ] as const) {
    await expect(summaryCell(label)).toHaveText(value);
    await expect(summaryCell(label)).toHaveClass(new RegExp(color));
  }
});

test("account: change password, log out, delete the account, then sign-in fails", async ({
  page,
  user,
}) => {
  await page.goto("/settings?tab=account");
  const newPassword = typedPassword(
    `a brand new password ${Math.random().toString(36).slice(2, 8)}`,
  );
  await page.getByLabel("Current Password").fill(typedPassword("wrong password here"));
  await page.getByLabel("New Password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm New Password").fill(newPassword);
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByRole("alert")).toContainText("Current password is incorrect");
  await page.getByLabel("Current Password").fill(typedPassword(user.password));
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Password changed successfully" }),
  ).toBeVisible();

  await page.getByRole("main").getByRole("button", { name: "Log Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInViaUi(page, { username: user.username, password: newPassword });
  await expectDashboard(page, user);

  await page.goto("/settings?tab=account");
  await expect(page.getByText(/Deleting your account is permanent/)).toBeVisible();
  await page.getByRole("button", { name: "Delete Account" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(
    "Are you sure you want to delete your account? This cannot be undone and all your data will be permanently removed.",
  );
  await dialog.getByRole("button", { name: "Delete Account" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Account deleted successfully" }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

  await signInViaUi(page, { username: user.username, password: newPassword });
  await expect(page.getByRole("alert")).toContainText("Invalid username or password");
  await expect(page).toHaveURL(/\/login$/);
});
