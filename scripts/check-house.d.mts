export declare const MAX_LINES: number;
export declare function isLengthExempt(relativePath: string): boolean;
export interface HouseReport {
  longFiles: { file: string; lines: number }[];
  /** `files`: the cycle's strongly connected files; `path`: one cycle through them, first file last again. */
  cycles: { files: string[]; path: string[] }[];
  /** Lines that send the reader to SPEC/DESIGN sections or ../shared/, which a clone does not have. */
  outsideCitations: { file: string; line: number }[];
}
export declare function checkHouse(root: string, options?: { maxLines?: number }): HouseReport;
