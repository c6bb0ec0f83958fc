import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** Until the app has stored its offline copy of the due questions in IndexedDB. */
export async function waitForOfflineCopy(page: Page, questions: number): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const raw = localStorage.getItem("prite-offline-user");
          if (!raw) return 0;
          const { _id } = JSON.parse(raw) as { _id: string };
          const name = `prite-offline-${_id}`;
          // Opening a database that does not exist yet would create it: only look once it does.
          if (!(await indexedDB.databases()).some((d) => d.name === name)) return 0;
          return new Promise<number>((resolve) => {
            const open = indexedDB.open(name);
            open.onerror = () => resolve(0);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains("kv")) return resolve(0);
              const get = db.transaction("kv").objectStore("kv").get("copy");
              get.onsuccess = () => {
                resolve(
                  (get.result as { questions?: unknown[] } | undefined)?.questions?.length ?? 0,
                );
                db.close();
              };
              get.onerror = () => resolve(0);
            };
          });
        }),
      { timeout: 15_000 },
    )
    .toBe(questions);
}
