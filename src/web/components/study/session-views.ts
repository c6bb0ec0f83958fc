/**
 * The Study page's views of a session: the question and the flashcard with the progress box
 * (SessionQuestion), Session Complete and Session Review. They load apart from the page
 * (study-page.tsx), when a session starts or once the page is idle: with them come the sanitizer for the
 * questions' HTML, the media helpers and the statistics, which the page's first screen (the overview
 * and Start Studying) does not need, and which lengthened its first load on a phone (issue 20 item 3).
 */
export { SessionQuestion } from "./session-question";
export { SessionComplete } from "./session-complete";
export { SessionReview } from "./session-review";
