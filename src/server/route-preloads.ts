/**
 * Which code chunks each page of the web app needs, so the server can name them in a `Link` header on
 * the page's HTML (issue 35 item 2, docs/decisions/418). Without it a phone learns of a page's chunks
 * only once the entry script has downloaded and run (several slow tasks on a throttled CPU); with it
 * they download while the entry does. Written at build time by vite.config.ts into
 * dist/web/route-preloads.json, read by the server (app.ts). No Node imports: the Vite config uses it.
 */

/** A page's address pattern (`/exams/$examId`) and the scripts it needs beyond the entry's own. */
export interface RoutePreload {
  path: string;
  files: string[];
}

/** What the build writes: the entry's own scripts and stylesheets, and one entry per page. */
export interface RoutePreloads {
  entry: { scripts: string[]; styles: string[] };
  routes: RoutePreload[];
}

/** The file name of the build's map, in dist/web. */
export const ROUTE_PRELOADS_FILE = "route-preloads.json";

/**
 * The URL pattern of a route file under src/web/routes, named without its extension, as TanStack
 * Router's file-based routing reads it: `/` and `.` separate segments, a segment starting with `_` is
 * a pathless layout, a trailing `_` un-nests (`study_.plan` is /study/plan), `index` is the folder's
 * own page. `_app/exams/$examId` is `/exams/$examId`; `_app/index` is `/`.
 */
export function routePathOf(routeFile: string): string {
  const segments = routeFile
    .split(/[/.]/)
    .filter((segment) => !segment.startsWith("_") && segment !== "index")
    .map((segment) => segment.replace(/_$/, ""));
  return `/${segments.join("/")}`;
}

/**
 * The layouts a route file renders inside: the route files whose name is a parent of its own
 * (`_app` for `_app/exams/$examId`). `study_.plan` is not under `study` (its `_` says so).
 */
export function layoutsOf(routeFile: string, routeFiles: readonly string[]): string[] {
  return routeFiles.filter(
    (other) =>
      other !== routeFile &&
      (routeFile.startsWith(`${other}/`) || routeFile.startsWith(`${other}.`)),
  );
}

/** Whether a route file only frames others (a layout), rather than being a page of its own. */
export function isLayout(routeFile: string, routeFiles: readonly string[]): boolean {
  return (
    routeFile === "__root" ||
    routeFiles.some((other) => layoutsOf(other, routeFiles).includes(routeFile))
  );
}

/** How many `$` segments a pattern has; a page with fewer wins (`/exams/mock/$code` over a param). */
const paramCount = (pattern: string) => pattern.split("/").filter((s) => s.startsWith("$")).length;

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split("/").filter(Boolean);
  const have = pathname.split("/").filter(Boolean);
  return (
    want.length === have.length &&
    want.every((segment, i) => segment.startsWith("$") || segment === have[i])
  );
}

/** The scripts the page at `pathname` needs, or none when no page matches. */
export function preloadsFor(preloads: RoutePreloads, pathname: string): string[] {
  let best: RoutePreload | null = null;
  for (const route of preloads.routes) {
    if (!matches(route.path, pathname)) continue;
    if (!best || paramCount(route.path) < paramCount(best.path)) best = route;
  }
  return best?.files ?? [];
}

/**
 * The `Link` header for the page at `pathname`: the entry's files first (index.html names them too,
 * but the header is read before the document, and the order is the order of download), then the
 * page's own chunks; null for an address that is no page of the app.
 */
export function preloadLinkHeader(preloads: RoutePreloads, pathname: string): string | null {
  const files = preloadsFor(preloads, pathname);
  if (files.length === 0) return null;
  return [
    ...preloads.entry.scripts.map((file) => `<${file}>; rel=modulepreload`),
    ...preloads.entry.styles.map((file) => `<${file}>; rel=preload; as=style; crossorigin`),
    ...files.map((file) => `<${file}>; rel=modulepreload`),
  ].join(", ");
}
