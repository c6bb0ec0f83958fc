import {
  expect,
  fillRegisterForm,
  makeUser,
  registerViaApi,
  seriousAxeViolations,
  test,
  trpcMutation,
} from "./fixtures";

/**
 * Issue 32 item 1 at 375 px: a chief resident creates a program, a resident opens the join link signed
 * out, registers, comes back to it and joins; the chief promotes and removes, the resident's access
 * ends; axe finds nothing serious on the new screens.
 */
test.use({ viewport: { width: 375, height: 740 } });

test("create a program, join by the link after registering, promote, remove, leave", async ({
  page,
  user,
  newContext,
}) => {
  test.setTimeout(120_000);
  void user;
  await page.goto("/program/members");
  await expect(page.getByRole("heading", { level: 1, name: "Program" })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  const create = page.getByRole("form", { name: "Create a program" });
  await create.getByLabel("Program name").fill("Riverside Psychiatry");
  await create.getByLabel("Institution").fill("Riverside University");
  await create.getByRole("button", { name: "Create program" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Riverside Psychiatry" })).toBeVisible();
  const code = (await page.getByTestId("join-code").textContent())!.trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  const link = await page.getByLabel("Join link").inputValue();
  expect(link).toMatch(new RegExp(`/join/${code}$`));
  await expect(page.getByRole("navigation", { name: "Program pages" })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  // A resident opens the link signed out, registers from Sign In, and lands back on it.
  const residentContext = await newContext({ viewport: { width: 375, height: 740 } });
  const resident = await residentContext.newPage();
  const newcomer = makeUser({ prefix: "newcomer", pgyLevel: "1" });
  await resident.goto(`/join/${code}`);
  await expect(resident).toHaveURL(new RegExp(`/login\\?redirect=%2Fjoin%2F${code}$`));
  await resident.getByRole("link", { name: "Register" }).click();
  await fillRegisterForm(resident, newcomer);
  await resident.getByRole("button", { name: "Register", exact: true }).click();
  await expect(resident).toHaveURL(new RegExp(`/join/${code}$`));
  await expect(resident.getByText("Riverside University")).toBeVisible();
  expect(await seriousAxeViolations(resident)).toEqual([]);
  await resident.getByRole("button", { name: "Join Riverside Psychiatry" }).click();
  await expect(
    resident.getByRole("heading", { level: 1, name: "Riverside Psychiatry" }),
  ).toBeVisible();
  await expect(resident.getByRole("heading", { name: "Directors" })).toBeVisible();
  expect(await seriousAxeViolations(resident)).toEqual([]);

  // The chief sees the resident under PGY-1, promotes, demotes, then removes them.
  await page.reload();
  const row = page.getByRole("region", { name: "PGY-1" }).getByRole("listitem");
  await expect(row).toContainText(newcomer.username);
  await page.getByRole("button", { name: `Make ${newcomer.username} a director` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Make director" }).click();
  await expect(row.getByText("Director")).toBeVisible();
  await page.getByRole("button", { name: `Make ${newcomer.username} a resident` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Make resident" }).click();
  await expect(row.getByText("Resident")).toBeVisible();
  await page.getByRole("button", { name: `Remove ${newcomer.username}` }).click();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText(`${newcomer.username} was removed from the program.`)).toBeVisible();

  // The resident's next visit shows no program.
  await resident.reload();
  await expect(resident.getByRole("form", { name: "Join a program" })).toBeVisible();

  // Alone, the chief leaves with a confirmation; the program is deleted.
  await page.getByRole("button", { name: "Leave program" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("You are its last member");
  await page.getByRole("alertdialog").getByRole("button", { name: "Leave program" }).click();
  await expect(page.getByRole("form", { name: "Create a program" })).toBeVisible();
});

test("the Admin page lists every program", async ({ page, admin, newApiContext }) => {
  void admin;
  const chief = makeUser({ prefix: "chief" });
  const request = await newApiContext();
  await registerViaApi(request, chief);
  await trpcMutation(request, "programs.create", {
    name: "Summit Psychiatry",
    institution: "Summit Health",
  });
  await page.goto("/admin");
  const table = page.getByRole("table", { name: "Programs" });
  await expect(table).toContainText("Summit Psychiatry");
  await expect(table).toContainText(chief.username);
  expect(await seriousAxeViolations(page)).toEqual([]);
});
