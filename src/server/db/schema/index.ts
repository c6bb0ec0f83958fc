export * from "./users";
export * from "./questions";
export * from "./study";
export * from "./scores";
export * from "./answer-keys";
export * from "./exams";
export * from "./media";
export * from "./stats";
