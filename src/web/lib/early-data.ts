import { FIRST_CURSOR, NO_FILTERS, searchInput } from "@/web/components/browse/search-input";
import { EARLY_QUERY_META, type SessionUser, type TrpcUtils } from "./trpc";

/** A Practice Exam's runner: /exams/<the exam's id>. */
const EXAM_PATH = /^\/exams\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * The first data of the signed-in page at `pathname`, asked for in the same tick as the session check
 * so the tRPC link sends both in one batch (issue 20): the page's data arrives with the user instead
 * of a round trip after it, which on a phone on slow 4G is most of the time before the page shows
 * anything of its own. The inputs are the ones each page's first render asks with; a page that asks
 * with others simply fetches its own, and this answer goes unused.
 */
export function prefetchPageData(pathname: string, trpc: TrpcUtils): Promise<unknown> | null {
  const opts = { meta: EARLY_QUERY_META };
  // A Practice Exam's runner (issue 35 item 2): the exam itself.
  const exam = EXAM_PATH.exec(pathname);
  if (exam) return trpc.exams.get.prefetch({ examId: exam[1]! }, opts);
  switch (pathname) {
    case "/":
    case "/study":
      return trpc.stats.summary.prefetch(undefined, opts);
    case "/browse":
      // The first page of results and the filters' lists (components/browse/search-input.ts).
      return Promise.all([
        trpc.questions.search.prefetchInfinite(searchInput(NO_FILTERS), {
          ...opts,
          initialCursor: FIRST_CURSOR,
        }),
        trpc.questions.categories.prefetch(undefined, opts),
        trpc.questions.sources.prefetch(undefined, opts),
      ]);
    case "/program":
      // The role decides the page; a director's dashboard then asks for the report at once, still
      // before the page's code has loaded (issue 35 item 2).
      return trpc.programReport.mine
        .fetch(undefined, opts)
        .then((mine) =>
          mine?.role === "director"
            ? trpc.programReport.report.prefetch(undefined, opts)
            : undefined,
        )
        .catch(() => undefined);
    default:
      return null;
  }
}

/** How long the first page waits for its early data before it shows its own loading state. */
const FIRST_PAGE_WAIT_MS = 3_000;

let firstPageData: Promise<unknown> | null = null;
let firstLoadDone = false;

/**
 * The prefetch of the first page the app opens on, for `FirstPageGate`; later navigations are not
 * held. Offline nothing is held: the queries wait for the connection, the page must not.
 */
export function prefetchFirstPageData(pathname: string, trpc: TrpcUtils): void {
  const pending = prefetchPageData(pathname, trpc);
  if (firstLoadDone) return;
  firstLoadDone = true;
  if (!pending || !navigator.onLine) return;
  const settled = Promise.race([
    pending,
    new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS)),
  ]).then(() => {
    firstPageData = null;
  });
  firstPageData = settled;
}

/** The early data the first page still waits for, or null. */
export function pendingFirstPageData(): Promise<unknown> | null {
  return firstPageData;
}

let earlySessionCheck: Promise<SessionUser> | null = null;

/**
 * Asks for the session and the first page's data as the bundle is evaluated (issue 35 item 2), in one
 * batch, rather than once the first render has reached the signed-in layout's `beforeLoad`: on a
 * phone that render's start is several slow tasks after the bundle has arrived (the stylesheet, the
 * first render's set-up), and the page's data then came in a round trip after its code. Only for a
 * signed-in page opened online; offline the app opens from the offline copy without asking.
 */
export function startFirstSignedInLoad(pathname: string, trpc: TrpcUtils): void {
  if (!navigator.onLine) return;
  prefetchFirstPageData(pathname, trpc);
  const check = trpc.auth.me.fetch();
  // Its failure (a 401 above all) is read by `takeEarlySessionCheck`'s caller, not here.
  check.catch(() => undefined);
  earlySessionCheck = check;
}

/**
 * The session check `startFirstSignedInLoad` sent, once: the layout's `beforeLoad` awaits it instead
 * of asking again (a signed-out visitor's 401 would otherwise be asked for twice).
 */
export function takeEarlySessionCheck(): Promise<SessionUser> | null {
  const check = earlySessionCheck;
  earlySessionCheck = null;
  return check;
}
