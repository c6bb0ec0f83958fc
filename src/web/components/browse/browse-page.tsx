import { Layers, Plus, Search } from "lucide-react";
import {
  lazy,
  Suspense,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { TRPCClientError } from "@trpc/client";
import { PageHeader } from "@/web/components/layout/page-header";
import { isFlashcard } from "@/web/components/questions/question-kind";
import type { QuestionJson } from "@/web/components/questions/question-kind";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { LazyOptionSelect } from "@/web/components/ui/lazy-select";
import type { SelectOption } from "@/web/components/ui/select";
import { Spinner } from "@/web/components/ui/spinner";
import type { ItemStatsBrief } from "@/core/item-stats";
import { usePainted } from "@/web/lib/after-paint";
import { PART_OPTIONS } from "@/web/lib/options";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { isDue } from "./due";
import { LeechesList, useLeechCounts } from "./leeches-list";
import { QuestionCard } from "./question-card";
import { resultCountText } from "./result-count";
import { ALL, FIRST_CURSOR, NO_FILTERS, searchInput, type Filters } from "./search-input";

// The edit forms load when one is opened: they bring zod and the question schemas, whose module
// set-up was a long task of Browse's first load on a phone (issue 20 item 3).
const QuestionFormDialog = lazy(() =>
  import("@/web/components/questions/question-form-dialog").then((m) => ({
    default: m.QuestionFormDialog,
  })),
);
const HistoryDialog = lazy(() =>
  import("@/web/components/questions/history-dialog").then((m) => ({
    default: m.HistoryDialog,
  })),
);
const FlashcardFormDialog = lazy(() =>
  import("@/web/components/questions/flashcard-form-dialog").then((m) => ({
    default: m.FlashcardFormDialog,
  })),
);

export const BROWSE_TEXT = {
  SEARCH_FAILED: "Search failed",
  SEARCH_ERROR: "An error occurred while searching",
  UPDATED: "Question updated successfully",
  CREATED: "Question created successfully",
  DELETED: "Question deleted successfully",
  FLASHCARD_UPDATED: "Flashcard updated successfully",
  FLASHCARD_CREATED: "Flashcard created successfully",
  FLASHCARD_DELETED: "Flashcard deleted successfully",
} as const;

const PART_FILTER: SelectOption[] = [{ value: ALL, label: "All Parts" }, ...PART_OPTIONS];
const VISIBILITY_FILTER: SelectOption[] = [
  { value: "all", label: "All Questions" },
  { value: "mine", label: "My Questions" },
  { value: "private", label: "Private" },
  { value: "program", label: "My Program" },
  { value: "public", label: "Public Questions" },
];

/** Issue 17: multiple choice (every option-based type) or flashcards. */
const TYPE_FILTER: SelectOption[] = [
  { value: ALL, label: "All Types" },
  { value: "multipleChoice", label: "Multiple choice" },
  { value: "flashcard", label: "Flashcard" },
];

/** Issue 36 item 5: questions listed by their item statistics (owners, directors, admins). */
const STATS_FILTER: SelectOption[] = [
  { value: ALL, label: "Any" },
  { value: "mostMissed", label: "Most missed" },
  { value: "negativeDiscrimination", label: "Negative discrimination" },
  { value: "reported", label: "Reported" },
];

const NO_ITEMS: QuestionJson[] = [];

/**
 * docs/product/screens.md Browse: a search box, Part / Category / Visibility filters and a Search button; the result
 * count and one card per question, loading more as the user scrolls. 'New Question' opens the edit
 * form empty; the pencil on the user's own questions opens it filled.
 */
export function BrowsePage() {
  const user = useSessionUser();
  const utils = trpc.useUtils();
  const id = useId();
  const [form, setForm] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [editing, setEditing] = useState<{
    question: QuestionJson | null;
    flashcard: boolean;
  } | null>(null);
  const { show, banner } = useBanner();
  // Issue 36 item 4: the question whose history is open.
  const [historyOf, setHistoryOf] = useState<QuestionJson | null>(null);
  const mine = trpc.programs.mine.useQuery(undefined, { staleTime: 60_000 });
  /** Who may see a history (decision 388): the owner, the program's directors, admins for public ones. */
  const maySeeHistory = (q: QuestionJson) =>
    q.creator === user._id ||
    (q.visibility === "program" && mine.data?.role === "director") ||
    (q.isPublic && user.isAdmin);
  // Browse › Leeches (issue 34): Study's link opens it with #leeches.
  const [leechView, setLeechView] = useState(() => window.location.hash === "#leeches");
  const leechCounts = useLeechCounts();

  const search = trpc.questions.search.useInfiniteQuery(searchInput(applied), {
    initialCursor: FIRST_CURSOR,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const categories = trpc.questions.categories.useQuery();
  const sources = trpc.questions.sources.useQuery();

  // Pages are offsets into a list that may grow meanwhile: show each question once.
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (search.data?.pages ?? [])
      .flatMap((p) => p.items)
      .filter((q) => (seen.has(q._id) ? false : (seen.add(q._id), true)));
  }, [search.data]);
  const first = search.data?.pages[0];
  // Whose statistics the viewer may open (decision 390); a statistics filter lists only those. The
  // viewer's role in a program is asked for only when the results hold another member's question.
  const membership = trpc.programs.mine.useQuery(undefined, {
    staleTime: 60_000,
    enabled: items.some((q) => q.visibility === "program" && q.creator !== user._id),
  });
  const directs = membership.data?.role === "director";
  const statsBriefs = useMemo(
    () => Object.assign({}, ...(search.data?.pages ?? []).map((p) => p.stats ?? {})),
    [search.data],
  ) as Record<string, ItemStatsBrief>;
  const canSeeStats = (q: QuestionJson) =>
    q.creator === user._id ||
    q._id in statsBriefs ||
    (user.isAdmin && q.isPublic) ||
    (directs && q.visibility === "program");
  // The cards render in a transition React can slice: a page of results in one render was the
  // longest task of Browse's first load on a phone (issue 20 item 3). The count and the empty state
  // follow the answer at once; the cards follow within a few frames.
  // On the first load the cards wait for the page to be painted: the heading and the search form
  // are the first screen, and the cards' render (each card's HTML sanitized) delayed it on a phone.
  const painted = usePainted();
  const shownItems = useDeferredValue(painted ? items : NO_ITEMS, NO_ITEMS);

  const lastError = useRef<unknown>(null);
  useEffect(() => {
    if (!search.error || search.error === lastError.current) return;
    lastError.current = search.error;
    // The server's words when it answered, else the spec's defaults.
    const answered = search.error instanceof TRPCClientError && search.error.data;
    show(
      "error",
      answered ? errorMessage(search.error, BROWSE_TEXT.SEARCH_FAILED) : BROWSE_TEXT.SEARCH_ERROR,
    );
  }, [search.error, show]);

  // Load more as the end of the list scrolls into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = search;
  // Not while the cards drawn lag the results (the deferred value above): the end of a list not yet
  // drawn is in view, and would ask for the next page before the first is on screen.
  const drawn = shownItems === items;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || !drawn || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "400px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, drawn]);

  const categoryFilter: SelectOption[] = [
    { value: ALL, label: "All Categories" },
    ...(categories.data ?? []).map((c) => ({ value: c, label: c })),
  ];
  if (form.category !== ALL && !(categories.data ?? []).includes(form.category)) {
    categoryFilter.push({ value: form.category, label: form.category });
  }

  const sourceFilter: SelectOption[] = [
    { value: ALL, label: "All Sources" },
    ...(sources.data ?? []).map((c) => ({ value: c, label: c })),
  ];
  if (form.source !== ALL && !(sources.data ?? []).includes(form.source)) {
    sourceFilter.push({ value: form.source, label: form.source });
  }

  const refresh = async () => {
    await Promise.all([
      utils.questions.search.invalidate(),
      utils.questions.categories.invalidate(),
      utils.questions.sources.invalidate(),
      utils.questions.categoryStats.invalidate(),
      utils.questions.history.invalidate(),
    ]);
  };

  const now = new Date();
  const count = first ? resultCountText(first) : null;

  return (
    <div className="grid gap-4">
      <PageHeader
        title="Browse Questions"
        actions={
          <div className="flex flex-wrap gap-2">
            <Button
              variant={leechView ? "default" : "outline"}
              aria-pressed={leechView}
              onClick={() => setLeechView((v) => !v)}
            >
              Leeches
            </Button>
            <Button
              variant="outline"
              onClick={() => setEditing({ question: null, flashcard: true })}
            >
              <Layers aria-hidden="true" />
              New Flashcard
            </Button>
            <Button onClick={() => setEditing({ question: null, flashcard: false })}>
              <Plus aria-hidden="true" />
              New Question
            </Button>
          </div>
        }
      />

      <form
        role="search"
        className="grid gap-3 rounded-lg border bg-card p-4"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(form);
          lastError.current = null;
          if (JSON.stringify(form) === JSON.stringify(applied)) void search.refetch();
        }}
      >
        <Label htmlFor={`${id}-text`} className="sr-only">
          Search questions
        </Label>
        <Input
          id={`${id}-text`}
          type="search"
          placeholder="Search questions..."
          value={form.text}
          onChange={(e) => setForm((f) => ({ ...f, text: e.target.value }))}
        />
        <div className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 md:grid-cols-3 xl:grid-cols-6">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-part`}>Part</Label>
            <LazyOptionSelect
              id={`${id}-part`}
              value={form.part}
              onValueChange={(part) => setForm((f) => ({ ...f, part }))}
              options={PART_FILTER}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-category`}>Category</Label>
            <LazyOptionSelect
              id={`${id}-category`}
              value={form.category}
              onValueChange={(category) => setForm((f) => ({ ...f, category }))}
              options={categoryFilter}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-visibility`}>Visibility</Label>
            <LazyOptionSelect
              id={`${id}-visibility`}
              value={form.visibility}
              onValueChange={(v) =>
                setForm((f) => ({ ...f, visibility: v as Filters["visibility"] }))
              }
              options={VISIBILITY_FILTER}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-type`}>Type</Label>
            <LazyOptionSelect
              id={`${id}-type`}
              value={form.type}
              onValueChange={(type) => setForm((f) => ({ ...f, type }))}
              options={TYPE_FILTER}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-stats`}>Statistics</Label>
            <LazyOptionSelect
              id={`${id}-stats`}
              value={form.stats}
              onValueChange={(stats) => setForm((f) => ({ ...f, stats }))}
              options={STATS_FILTER}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-source`}>Source</Label>
            <LazyOptionSelect
              id={`${id}-source`}
              value={form.source}
              onValueChange={(source) => setForm((f) => ({ ...f, source }))}
              options={sourceFilter}
            />
          </div>
        </div>
        <Button type="submit" busy={search.isFetching && !isFetchingNextPage}>
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      {banner}

      {leechView ? (
        <LeechesList
          userId={user._id}
          onEdit={(question) => setEditing({ question, flashcard: isFlashcard(question) })}
        />
      ) : search.isPending ? (
        <Spinner label="Loading questions..." showLabel className="justify-center py-8" />
      ) : (
        <>
          {count && (
            <p
              className="text-sm text-muted-foreground"
              data-testid="result-count"
              aria-live="polite"
            >
              {count}
            </p>
          )}
          {first && items.length === 0 && (
            <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
              No questions match your search.
            </p>
          )}
          <div className="grid gap-3">
            {shownItems.map((question) => (
              <QuestionCard
                key={question._id}
                question={question}
                own={question.creator === user._id}
                due={isDue(question, user._id, now)}
                leechResidents={leechCounts.get(question._id)}
                canSeeStats={canSeeStats(question)}
                statsBrief={statsBriefs[question._id]}
                onEdit={() => setEditing({ question, flashcard: isFlashcard(question) })}
                onHistory={maySeeHistory(question) ? () => setHistoryOf(question) : undefined}
              />
            ))}
          </div>
          <div ref={sentinel} aria-hidden="true" />
          {hasNextPage && (
            <Button
              variant="outline"
              onClick={() => void fetchNextPage()}
              busy={isFetchingNextPage}
              className="justify-self-center"
            >
              Load More
            </Button>
          )}
        </>
      )}

      <Suspense fallback={null}>
        {historyOf && (
          <HistoryDialog
            key={historyOf._id}
            questionId={historyOf._id}
            flashcard={isFlashcard(historyOf)}
            open
            onOpenChange={(open) => !open && setHistoryOf(null)}
            onRestored={() => void refresh()}
          />
        )}
        {editing?.flashcard && (
          <FlashcardFormDialog
            key={editing.question?._id ?? "new-flashcard"}
            flashcard={editing.question}
            open
            onOpenChange={(open) => !open && setEditing(null)}
            onSaved={() => {
              show(
                "success",
                editing.question ? BROWSE_TEXT.FLASHCARD_UPDATED : BROWSE_TEXT.FLASHCARD_CREATED,
              );
              void refresh();
            }}
            onDeleted={() => {
              show("success", BROWSE_TEXT.FLASHCARD_DELETED);
              void refresh();
            }}
          />
        )}
        {editing && !editing.flashcard && (
          <QuestionFormDialog
            key={editing.question?._id ?? "new"}
            question={editing.question}
            open
            onOpenChange={(open) => !open && setEditing(null)}
            onSaved={() => {
              show("success", editing.question ? BROWSE_TEXT.UPDATED : BROWSE_TEXT.CREATED);
              void refresh();
            }}
            onDeleted={() => {
              show("success", BROWSE_TEXT.DELETED);
              void refresh();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
