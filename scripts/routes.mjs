#!/usr/bin/env node
// Regenerates src/web/routeTree.gen.ts from src/web/routes without a full build (the Vite plugin does
// the same during `npm run build` and `npm run dev`); run after adding or renaming a route file.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Generator, getConfig } from "@tanstack/router-generator";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const config = getConfig(
  {
    target: "react",
    autoCodeSplitting: true,
    routesDirectory: "src/web/routes",
    generatedRouteTree: "src/web/routeTree.gen.ts",
    quoteStyle: "double",
  },
  root,
);
await new Generator({ config, root }).run();
