export * from "./account";
export * from "./decimal";
export * from "./page";
export * from "./station";
export * from "./transaction";
export * from "./us-states";
export type * from "./summary";
export type * from "./export";
export * from "./list-totals";
