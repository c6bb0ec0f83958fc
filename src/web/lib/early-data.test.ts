import { afterEach, describe, expect, it, vi } from "vitest";
import { prefetchPageData, startFirstSignedInLoad, takeEarlySessionCheck } from "./early-data";
import type { TrpcUtils } from "./trpc";

/**
 * A stand-in for the tRPC query utilities that records which procedures a first page asks for early
 * (issue 20, issue 35 items 2 and 4), answering `mine` with the given role.
 */
function recorder(role: "director" | "resident" | null) {
  const asked: string[] = [];
  const utils = new Proxy(
    {},
    {
      get: (_, router: string) =>
        new Proxy(
          {},
          {
            get: (__, procedure: string) => ({
              prefetch: (input?: unknown) => {
                asked.push(`${router}.${procedure}${input ? ` ${JSON.stringify(input)}` : ""}`);
                return Promise.resolve();
              },
              prefetchInfinite: () => {
                asked.push(`${router}.${procedure} (infinite)`);
                return Promise.resolve();
              },
              fetch: () => {
                asked.push(`${router}.${procedure}`);
                return Promise.resolve(role ? { role } : null);
              },
            }),
          },
        ),
    },
  ) as unknown as TrpcUtils;
  return { utils, asked };
}

describe("prefetchPageData", () => {
  it("asks for Study's and the Dashboard's summary", async () => {
    for (const path of ["/", "/study"]) {
      const { utils, asked } = recorder(null);
      await prefetchPageData(path, utils);
      expect(asked).toEqual(["stats.summary"]);
    }
  });

  it("asks for a Practice Exam's exam by its id, and nothing for other exam pages", async () => {
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const { utils, asked } = recorder(null);
    await prefetchPageData(`/exams/${id}`, utils);
    expect(asked).toEqual([`exams.get {"examId":"${id}"}`]);
    expect(prefetchPageData("/exams", utils)).toBeNull();
    expect(prefetchPageData("/exams/mock/ABCDEFGH", utils)).toBeNull();
  });

  it("asks for the program report only when the user directs the program", async () => {
    const director = recorder("director");
    await prefetchPageData("/program", director.utils);
    expect(director.asked).toEqual(["programReport.mine", "programReport.report"]);
    for (const role of ["resident", null] as const) {
      const other = recorder(role);
      await prefetchPageData("/program", other.utils);
      expect(other.asked).toEqual(["programReport.mine"]);
    }
  });

  it("asks for nothing on pages without early data", () => {
    const { utils, asked } = recorder(null);
    expect(prefetchPageData("/import", utils)).toBeNull();
    expect(asked).toEqual([]);
  });
});

describe("startFirstSignedInLoad", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    takeEarlySessionCheck();
  });

  it("asks for the session and the page's data at once, and hands the check over once", async () => {
    vi.stubGlobal("navigator", { onLine: true });
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const { utils, asked } = recorder("resident");
    startFirstSignedInLoad(`/exams/${id}`, utils);
    // Both in the same tick, so the tRPC link sends them in one batch.
    expect(asked).toEqual([`exams.get {"examId":"${id}"}`, "auth.me"]);
    const check = takeEarlySessionCheck();
    expect(check).not.toBeNull();
    await expect(check).resolves.toEqual({ role: "resident" });
    // The layout's later checks ask the server (or the cache) as before.
    expect(takeEarlySessionCheck()).toBeNull();
  });

  it("asks for nothing offline: the app opens from the offline copy", () => {
    vi.stubGlobal("navigator", { onLine: false });
    const { utils, asked } = recorder(null);
    startFirstSignedInLoad("/study", utils);
    expect(asked).toEqual([]);
    expect(takeEarlySessionCheck()).toBeNull();
  });
});
