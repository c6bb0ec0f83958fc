import { useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { PGY_LEVELS } from "@/core/constants";
import { EXAM_LIMITS } from "@/core/exams";
import {
  ASSIGNMENT_STATUS_LABELS,
  type AssignmentStatus,
  type TCreateAssignment,
} from "@/core/programs/assignments";
import { PageHeader } from "@/web/components/layout/page-header";
import { ProgramNav } from "@/web/components/programs/program-nav";
import { Alert } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { fieldClasses, Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/web/components/ui/table";
import { errorMessage, trpc, type RouterOutputs } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import { ReserveCard } from "./reserve-card";

type List = RouterOutputs["assignments"]["list"];
type DirectorAssignment = Extract<List, { role: "director" }>["assignments"][number];
type ResidentAssignment = Extract<List, { role: "resident" }>["assignments"][number];

const STATUS_VARIANT: Record<AssignmentStatus, "secondary" | "info" | "success" | "destructive"> = {
  not_started: "secondary",
  in_progress: "info",
  done: "success",
  late: "destructive",
};

export function StatusBadge({ status }: { status: AssignmentStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{ASSIGNMENT_STATUS_LABELS[status]}</Badge>;
}

/** A due date as the reader's own calendar shows it. */
export function dueText(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}

const pgyText = (pgy: string | null) =>
  pgy ? (PGY_LEVELS.find((l) => l.value === pgy)?.label ?? pgy) : "Whole program";

function describe(a: {
  kind: string;
  questionCount: number;
  mode: string | null;
  categories: string[];
}) {
  if (a.kind === "exam")
    return `${a.mode === "tutor" ? "Tutor" : "Timed"} exam · ${a.questionCount} questions`;
  const where = a.categories.length ? ` in ${a.categories.join(", ")}` : "";
  return `Study set · ${a.questionCount} answers${where}`;
}

const inDays = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

function CreateForm() {
  const utils = trpc.useUtils();
  const [kind, setKind] = useState<"exam" | "study">("exam");
  const [title, setTitle] = useState("");
  const [size, setSize] = useState("20");
  const [mode, setMode] = useState<"timed" | "tutor">("timed");
  const [count, setCount] = useState("25");
  const [categories, setCategories] = useState("");
  const [due, setDue] = useState(inDays(7));
  const [pgy, setPgy] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const create = trpc.assignments.create.useMutation({
    onSuccess: (result) => {
      setNotice(result.notice ?? "Assigned.");
      void utils.assignments.list.invalidate();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cats = categories
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean);
    const common = { title, due, pgyLevel: pgy === "" ? null : pgy, categories: cats };
    const input = (
      kind === "exam"
        ? { kind, ...common, size: Number(size), mode }
        : { kind, ...common, count: Number(count) }
    ) as TCreateAssignment;
    create.mutate(input);
  };
  const select = cn(fieldClasses, "h-11");
  return (
    <Card>
      <CardHeader>
        <CardTitle>New assignment</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={submit}>
          <div className="grid gap-1">
            <Label htmlFor="assign-kind">Kind</Label>
            <select
              id="assign-kind"
              className={select}
              value={kind}
              onChange={(e) => setKind(e.target.value as "exam" | "study")}
            >
              <option value="exam">Practice exam</option>
              <option value="study">Study set</option>
            </select>
          </div>
          <div className="grid gap-1">
            <Label htmlFor="assign-title">Title (optional)</Label>
            <Input id="assign-title" value={title} onChange={(e) => setTitle(e.target.value)} />
          </div>
          {kind === "exam" ? (
            <>
              <div className="grid gap-1">
                <Label htmlFor="assign-size">Questions</Label>
                <Input
                  id="assign-size"
                  type="number"
                  inputMode="numeric"
                  min={EXAM_LIMITS.SIZE_MIN}
                  max={EXAM_LIMITS.SIZE_MAX}
                  value={size}
                  onChange={(e) => setSize(e.target.value)}
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor="assign-mode">Mode</Label>
                <select
                  id="assign-mode"
                  className={select}
                  value={mode}
                  onChange={(e) => setMode(e.target.value as "timed" | "tutor")}
                >
                  <option value="timed">Timed</option>
                  <option value="tutor">Tutor</option>
                </select>
              </div>
            </>
          ) : (
            <div className="grid gap-1">
              <Label htmlFor="assign-count">Answers to give</Label>
              <Input
                id="assign-count"
                type="number"
                inputMode="numeric"
                min={1}
                value={count}
                onChange={(e) => setCount(e.target.value)}
              />
            </div>
          )}
          <div className="grid gap-1">
            <Label htmlFor="assign-categories">Categories (comma-separated, optional)</Label>
            <Input
              id="assign-categories"
              value={categories}
              onChange={(e) => setCategories(e.target.value)}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="assign-due">Due date</Label>
            <Input
              id="assign-due"
              type="date"
              value={due}
              onChange={(e) => setDue(e.target.value)}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="assign-pgy">For</Label>
            <select
              id="assign-pgy"
              className={select}
              value={pgy}
              onChange={(e) => setPgy(e.target.value)}
            >
              <option value="">Whole program</option>
              {PGY_LEVELS.slice(0, 6).map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </div>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Assigning…" : "Assign"}
            </Button>
          </div>
        </form>
        {create.isError && (
          <Alert type="error" autoCloseMs={null}>
            {errorMessage(create.error, "Could not create the assignment")}
          </Alert>
        )}
        {notice && !create.isError && <Alert type="success">{notice}</Alert>}
      </CardContent>
    </Card>
  );
}

function DirectorCard({ a }: { a: DirectorAssignment }) {
  const utils = trpc.useUtils();
  const [newDue, setNewDue] = useState(inDays(7));
  const update = trpc.assignments.update.useMutation({
    onSuccess: () => void utils.assignments.list.invalidate(),
  });
  const heading = a.title || (a.kind === "exam" ? "Practice exam" : "Study set");
  return (
    <Card data-testid="assignment">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {heading}
          {a.closedAt && <Badge variant="secondary">Closed</Badge>}
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          {describe(a)} · {pgyText(a.pgyLevel)} · due {dueText(a.dueAt)}
        </p>
      </CardHeader>
      <CardContent className="space-y-3">
        {a.residents.length === 0 ? (
          <p className="text-sm text-muted-foreground">No residents in this class yet.</p>
        ) : (
          <div
            className="overflow-x-auto"
            tabIndex={0}
            role="region"
            aria-label={`Residents: ${heading}`}
          >
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead scope="col">Resident</TableHead>
                  <TableHead scope="col">Status</TableHead>
                  <TableHead scope="col">{a.kind === "study" ? "Answered" : "Score"}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {a.residents.map((r) => (
                  <TableRow key={r.userId}>
                    <TableCell>
                      {r.displayName || r.username}
                      <span className="block text-xs text-muted-foreground">
                        {pgyText(r.pgyLevel)}
                      </span>
                    </TableCell>
                    <TableCell>
                      <StatusBadge status={r.status} />
                    </TableCell>
                    <TableCell>
                      {a.kind === "study" ? `${r.answered}/${a.questionCount}` : ""}
                      {r.scorePercent !== null && (
                        <span className={a.kind === "study" ? "ml-1 text-muted-foreground" : ""}>
                          {a.kind === "study" ? `(${r.scorePercent}%)` : `${r.scorePercent}%`}
                        </span>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        <div className="flex flex-wrap items-end gap-2">
          {!a.closedAt && (
            <Button
              variant="outline"
              disabled={update.isPending}
              onClick={() => update.mutate({ assignmentId: a.id, closed: true })}
            >
              Close
            </Button>
          )}
          <div className="grid gap-1">
            <Label htmlFor={`extend-${a.id}`}>New due date</Label>
            <Input
              id={`extend-${a.id}`}
              type="date"
              value={newDue}
              onChange={(e) => setNewDue(e.target.value)}
            />
          </div>
          <Button
            variant="outline"
            disabled={update.isPending}
            onClick={() => update.mutate({ assignmentId: a.id, due: newDue })}
          >
            {a.closedAt ? "Reopen with this date" : "Extend"}
          </Button>
        </div>
        {update.isError && (
          <Alert type="error" autoCloseMs={null}>
            {errorMessage(update.error, "Could not change the assignment")}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

/** Start or Continue an assignment: an exam opens in the exam runner; a study set in Study. */
export function AssignmentAction({ a }: { a: ResidentAssignment }) {
  const navigate = useNavigate();
  const start = trpc.assignments.start.useMutation({
    onSuccess: (exam) => void navigate({ to: "/exams/$examId", params: { examId: exam.id } }),
  });
  if (a.closedAt || a.finishedAt) return null;
  const label = a.status === "not_started" ? "Start" : "Continue";
  if (a.kind === "study") {
    return (
      <Button variant="outline" onClick={() => void navigate({ to: "/study" })}>
        {label}
      </Button>
    );
  }
  return (
    <>
      <Button disabled={start.isPending} onClick={() => start.mutate({ assignmentId: a.id })}>
        {label}
      </Button>
      {start.isError && (
        <Alert type="error" autoCloseMs={null}>
          {errorMessage(start.error, "Could not open the exam")}
        </Alert>
      )}
    </>
  );
}

function ResidentCard({ a }: { a: ResidentAssignment }) {
  return (
    <Card data-testid="assignment">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {a.title || (a.kind === "exam" ? "Practice exam" : "Study set")}
          <StatusBadge status={a.status} />
          {a.closedAt && <Badge variant="secondary">Closed</Badge>}
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          {describe(a)} · due {dueText(a.dueAt)}
        </p>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-3">
        {a.kind === "study" && (
          <span className="text-sm">
            {a.answered}/{a.questionCount} answered
          </span>
        )}
        {a.scorePercent !== null && <span className="text-sm">Score {a.scorePercent}%</span>}
        <AssignmentAction a={a} />
      </CardContent>
    </Card>
  );
}

/** /program/assignments (docs/product/assignments.md): directors assign and follow; residents take. */
export function AssignmentsPage() {
  const list = trpc.assignments.list.useQuery();
  const data = list.data;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Assignments"
        description={
          data?.role === "director"
            ? "Give the program or a PGY class an exam or a study set, and follow each resident."
            : "Work your program's directors gave you, with due dates."
        }
      />
      <ProgramNav />
      {list.isPending && <Spinner label="Loading..." showLabel />}
      {list.isError && (
        <Alert type="error" autoCloseMs={null}>
          {errorMessage(list.error, "Failed to load the assignments")}
        </Alert>
      )}
      {data?.role === "director" && <CreateForm />}
      {data && data.assignments.length === 0 && (
        <p className="text-muted-foreground">No assignments yet.</p>
      )}
      {data?.role === "director" && data.assignments.map((a) => <DirectorCard key={a.id} a={a} />)}
      {data?.role === "resident" && data.assignments.map((a) => <ResidentCard key={a.id} a={a} />)}
      {data?.role === "director" && <ReserveCard />}
    </div>
  );
}
