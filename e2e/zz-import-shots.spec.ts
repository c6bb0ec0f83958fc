import { test } from "./fixtures";

test("shots", async ({ page, user }) => {
  void user;
  await page.goto("/capture");
  await page.getByText("How to copy text from a photo").click();
  await page.screenshot({ path: `.tmp/shots/capture-1.png`, fullPage: true });
  await page.goto("/test");
  await page.getByLabel("Question Text").fill("1. x\nA. a\nB. b");
  await page.screenshot({ path: `.tmp/shots/test-1.png`, fullPage: true });
  await page.getByRole("tab", { name: "Process Answer Key" }).click();
  await page.screenshot({ path: `.tmp/shots/test-2.png`, fullPage: true });
});
