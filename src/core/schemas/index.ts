export * from "./common";
export * from "./auth";
export * from "./question";
export * from "./priteScore";
export * from "./importSettings";
export * from "./study";
export * from "./exam";
