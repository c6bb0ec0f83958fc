export declare const MAX_LINES: number;
export declare function isLengthExempt(relativePath: string): boolean;
export interface HouseReport {
  longFiles: { file: string; lines: number }[];
  /** `files`: the cycle's strongly connected files; `path`: one cycle through them, first file last again. */
  cycles: { files: string[]; path: string[] }[];
}
export declare function checkHouse(root: string, options?: { maxLines?: number }): HouseReport;
