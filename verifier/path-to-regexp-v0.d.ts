/** Types for path-to-regexp 0.1.x (installed as `path-to-regexp-v0`), the grammar of Express 4 paths. */
declare module 'path-to-regexp-v0' {
  /** Compiles an Express 4 path to a RegExp; `keys` receives the parameter descriptions. */
  export default function pathToRegexp(
    path: string | RegExp | Array<string | RegExp>,
    keys?: unknown[],
    options?: { sensitive?: boolean; strict?: boolean; end?: boolean },
  ): RegExp;
}
