import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import regexp from "eslint-plugin-regexp";

export default tseslint.config(
  {
    ignores: [
      "dist",
      "data",
      "node_modules",
      "drizzle",
      "src/web/routeTree.gen.ts",
      "test-results",
      "playwright-report",
      ".tmp",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { regexp },
    rules: {
      // A regular expression that backtracks super-linearly on client or file text lets one request
      // stall the server (issue 24): these are errors, and a disable comment must say why the input is
      // bounded.
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["src/web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "fs", "path", "crypto", "os"],
              message: "src/core is isomorphic: no Node built-ins.",
            },
            {
              group: ["**/server/**", "**/web/**", "drizzle-orm", "drizzle-orm/*", "react"],
              message: "src/core stays pure.",
            },
          ],
        },
      ],
    },
  },
  {
    // cli/ and src/web/ are siblings: what both need lives in src/core (DESIGN §3).
    files: ["cli/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/src/web/**", "@/web/**"], message: "cli/ never imports src/web." },
          ],
        },
      ],
    },
  },
);
