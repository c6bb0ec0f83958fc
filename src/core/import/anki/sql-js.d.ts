/**
 * The part of sql.js (1.16) the Anki reader and writer use. sql.js ships no types; @types/sql.js would pull in
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
    prepare(sql: string): Statement;
    export(): Uint8Array;
    close(): void;
  }
  /** A prepared statement: the Anki writer inserts thousands of rows with one. */
  export interface Statement {
    run(params?: SqlValue[]): void;
    free(): boolean;
  }
  export interface SqlJsStatic {
    Database: new (data?: ArrayLike<number> | Uint8Array | null) => Database;
  }
  export default function initSqlJs(config?: SqlJsConfig): Promise<SqlJsStatic>;
}
