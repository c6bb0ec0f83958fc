import { Plus, Search } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { TRPCClientError } from "@trpc/client";
import { PageHeader } from "@/web/components/layout/page-header";
import {
  QuestionFormDialog,
  type QuestionJson,
} from "@/web/components/questions/question-form-dialog";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect, type SelectOption } from "@/web/components/ui/select";
import { Spinner } from "@/web/components/ui/spinner";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { isDue } from "./due";
import { QuestionCard } from "./question-card";
import { resultCountText } from "./result-count";

export const BROWSE_TEXT = {
  SEARCH_FAILED: "Search failed",
  SEARCH_ERROR: "An error occurred while searching",
  UPDATED: "Question updated successfully",
  CREATED: "Question created successfully",
  DELETED: "Question deleted successfully",
} as const;

const PAGE_SIZE = 20;
const ALL = "all";

const PART_FILTER: SelectOption[] = [
  { value: ALL, label: "All Parts" },
  { value: "1", label: "Part 1" },
  { value: "2", label: "Part 2" },
];
const VISIBILITY_FILTER: SelectOption[] = [
  { value: "all", label: "All Questions" },
  { value: "mine", label: "My Questions" },
  { value: "public", label: "Public Questions" },
];

interface Filters {
  text: string;
  part: string;
  category: string;
  visibility: "all" | "mine" | "public";
}
const NO_FILTERS: Filters = { text: "", part: ALL, category: ALL, visibility: "all" };

/**
 * SPEC §2 Browse: a search box, Part / Category / Visibility filters and a Search button; the result
 * count and one card per question, loading more as the user scrolls. 'New Question' opens the edit
 * form empty; the pencil on the user's own questions opens it filled.
 */
export function BrowsePage() {
  const user = useSessionUser();
  const utils = trpc.useUtils();
  const id = useId();
  const [form, setForm] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [editing, setEditing] = useState<{ question: QuestionJson | null } | null>(null);
  const { show, banner } = useBanner();

  const input = {
    text: applied.text.trim() || undefined,
    part: applied.part === ALL ? undefined : applied.part,
    category: applied.category === ALL ? undefined : applied.category,
    visibility: applied.visibility,
    pageSize: PAGE_SIZE,
  };
  const search = trpc.questions.search.useInfiniteQuery(input, {
    initialCursor: 1,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const categories = trpc.questions.categories.useQuery();

  // Pages are offsets into a list that may grow meanwhile: show each question once.
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (search.data?.pages ?? [])
      .flatMap((p) => p.items)
      .filter((q) => (seen.has(q._id) ? false : (seen.add(q._id), true)));
  }, [search.data]);
  const first = search.data?.pages[0];

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
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "400px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const categoryFilter: SelectOption[] = [
    { value: ALL, label: "All Categories" },
    ...(categories.data ?? []).map((c) => ({ value: c, label: c })),
  ];
  if (form.category !== ALL && !(categories.data ?? []).includes(form.category)) {
    categoryFilter.push({ value: form.category, label: form.category });
  }

  const refresh = async () => {
    await Promise.all([
      utils.questions.search.invalidate(),
      utils.questions.categories.invalidate(),
      utils.questions.categoryStats.invalidate(),
    ]);
  };

  const now = new Date();
  const count = first ? resultCountText(first) : null;

  return (
    <div className="grid gap-4">
      <PageHeader
        title="Browse Questions"
        actions={
          <Button onClick={() => setEditing({ question: null })}>
            <Plus aria-hidden="true" />
            New Question
          </Button>
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
        <div className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-3">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-part`}>Part</Label>
            <OptionSelect
              id={`${id}-part`}
              value={form.part}
              onValueChange={(part) => setForm((f) => ({ ...f, part }))}
              options={PART_FILTER}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-category`}>Category</Label>
            <OptionSelect
              id={`${id}-category`}
              value={form.category}
              onValueChange={(category) => setForm((f) => ({ ...f, category }))}
              options={categoryFilter}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-visibility`}>Visibility</Label>
            <OptionSelect
              id={`${id}-visibility`}
              value={form.visibility}
              onValueChange={(v) =>
                setForm((f) => ({ ...f, visibility: v as Filters["visibility"] }))
              }
              options={VISIBILITY_FILTER}
            />
          </div>
        </div>
        <Button type="submit" busy={search.isFetching && !isFetchingNextPage}>
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      {banner}

      {search.isPending ? (
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
            {items.map((question) => (
              <QuestionCard
                key={question._id}
                question={question}
                own={question.creator === user._id}
                due={isDue(question, user._id, now)}
                onEdit={() => setEditing({ question })}
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

      {editing && (
        <QuestionFormDialog
          key={editing.question?._id ?? "new"}
          question={editing.question}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          defaultPublic={user.settings.publicProfile}
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
    </div>
  );
}
