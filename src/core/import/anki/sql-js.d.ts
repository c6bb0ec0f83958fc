/**
 * The part of sql.js (1.16) this reader uses. sql.js ships no types; @types/sql.js would pull in
 * the Emscripten types for four calls.
 */
declare module "sql.js" {
  export interface SqlJsConfig {
    locateFile?: (file: string, prefix: string) => string;
    wasmBinary?: ArrayBuffer | Uint8Array;
  }
  export type SqlValue = number | string | Uint8Array | null;
  export interface QueryExecResult {
    columns: string[];
    values: SqlValue[][];
  }
  export interface Database {
    exec(sql: string, params?: SqlValue[]): QueryExecResult[];
    run(sql: string, params?: SqlValue[]): Database;
    export(): Uint8Array;
    close(): void;
  }
  export interface SqlJsStatic {
    Database: new (data?: ArrayLike<number> | Uint8Array | null) => Database;
  }
  export default function initSqlJs(config?: SqlJsConfig): Promise<SqlJsStatic>;
}
