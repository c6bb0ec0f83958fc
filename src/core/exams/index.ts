export * from "../random";
export * from "./blueprint";
export * from "./scoring";
export * from "./item-analysis";
export * from "./settings";
