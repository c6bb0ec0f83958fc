import { EXAM_STATUSES, type ExamMode, type ExamStatus } from "@/core/exams/settings";

export function modeLabel(mode: ExamMode): string {
  return mode === "timed" ? "Timed" : "Tutor";
}

export function examStatusLabel(status: ExamStatus): string {
  if (status === "in_progress") return "In progress";
  if (status === "expired") return "Expired (time ran out)";
  return "Submitted";
}

function isExamStatus(status: string): status is ExamStatus {
  return (EXAM_STATUSES as readonly string[]).includes(status);
}

/** A status the server reports as text (a mock exam's takers): one this app does not know shows as sent. */
export function reportedStatusLabel(status: string): string {
  return isExamStatus(status) ? examStatusLabel(status) : status;
}

/** A clock's reading: 1:05:09 or 4:07. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/** A duration in words: 42 s, 3 min 5 s, 1 h 2 min. */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total} s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${m} min`;
  return s ? `${m} min ${s} s` : `${m} min`;
}
