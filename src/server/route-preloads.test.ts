import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  isLayout,
  layoutsOf,
  preloadLinkHeader,
  preloadsFor,
  routePathOf,
  type RoutePreloads,
} from "./route-preloads";

const WEB = path.join(import.meta.dirname, "..", "web");

/** Every route file under src/web/routes, named as the build names it (no extension). */
function routeFiles(dir = path.join(WEB, "routes"), prefix = ""): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? routeFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : entry.name.endsWith(".tsx")
          ? [`${prefix}${entry.name.replace(/\.tsx$/, "")}`]
          : [],
    );
}

/** The router's own answer: each route file's full path, from the generated route tree. */
function generatedFullPaths(): Map<string, string> {
  const tree = fs.readFileSync(path.join(WEB, "routeTree.gen.ts"), "utf8");
  const fileOf = new Map(
    [...tree.matchAll(/import \{ Route as (\w+)RouteImport \} from "\.\/routes\/([^"]+)"/g)].map(
      (m) => [m[1]!, m[2]!],
    ),
  );
  const byFullPath = tree.slice(tree.indexOf("export interface FileRoutesByFullPath"));
  const block = byFullPath.slice(0, byFullPath.indexOf("}"));
  const paths = new Map<string, string>();
  for (const m of block.matchAll(/"([^"]+)": typeof (\w+)Route\b/g)) {
    paths.set(fileOf.get(m[2]!)!, m[1]!.length > 1 ? m[1]!.replace(/\/$/, "") : m[1]!);
  }
  return paths;
}

describe("route preloads", () => {
  it("reads every page's address from its file name as the router does", () => {
    const files = routeFiles();
    const expected = generatedFullPaths();
    const pages = files.filter((file) => !isLayout(file, files));
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages) expect([page, routePathOf(page)]).toEqual([page, expected.get(page)]);
    expect(files.filter((file) => isLayout(file, files)).sort()).toEqual(["__root", "_app"]);
    expect(layoutsOf("_app/exams/$examId", files)).toEqual(["_app"]);
    expect(layoutsOf("_app/study_.plan", files)).toEqual(["_app"]);
    expect(layoutsOf("login", files)).toEqual([]);
  });

  const preloads: RoutePreloads = {
    entry: { scripts: ["/assets/index.js"], styles: ["/assets/index.css"] },
    routes: [
      { path: "/", files: ["/assets/dashboard.js"] },
      { path: "/exams/$examId", files: ["/assets/runner.js"] },
      { path: "/exams/mock/$code", files: ["/assets/mock.js"] },
      { path: "/program/me", files: ["/assets/me.js"] },
      { path: "/program", files: ["/assets/program.js"] },
    ],
  };

  it("finds the page an address opens, a named segment before a parameter", () => {
    expect(preloadsFor(preloads, "/")).toEqual(["/assets/dashboard.js"]);
    expect(preloadsFor(preloads, "/exams/0f8fad5b")).toEqual(["/assets/runner.js"]);
    expect(preloadsFor(preloads, "/exams/mock/ABCD")).toEqual(["/assets/mock.js"]);
    expect(preloadsFor(preloads, "/program/")).toEqual(["/assets/program.js"]);
    expect(preloadsFor(preloads, "/program/me")).toEqual(["/assets/me.js"]);
    expect(preloadsFor(preloads, "/exams")).toEqual([]);
    expect(preloadsFor(preloads, "/exams/a/b/c")).toEqual([]);
  });

  it("names the entry's files first, then the page's; nothing for an unknown address", () => {
    expect(preloadLinkHeader(preloads, "/program")).toBe(
      "</assets/index.js>; rel=modulepreload, </assets/index.css>; rel=preload; as=style; crossorigin, </assets/program.js>; rel=modulepreload",
    );
    expect(preloadLinkHeader(preloads, "/nowhere")).toBeNull();
  });
});
