/** The parts of a question's JSON that decide its Due chip. */
export interface DueInput {
  creator: string | null;
  correctAnswer: string;
  correctAnswers: string[];
  studyData: { nextReview: string | null }[];
}

/**
 * The Due chip: the question is in the viewer's study pool and due now (docs/product/scheduling.md and decision 021):
 * it has a correct answer, and either the viewer studied it and its review date has passed, or it is
 * the viewer's own and never studied. Other users' public questions join the pool 20 at a time, so a
 * never-studied one is not marked.
 */
export function isDue(question: DueInput, viewerId: string, now: Date): boolean {
  const answerable = question.correctAnswer !== "" || question.correctAnswers.length > 0;
  if (!answerable) return false;
  const state = question.studyData[0];
  if (!state) return question.creator === viewerId;
  return state.nextReview === null || Date.parse(state.nextReview) <= now.getTime();
}
