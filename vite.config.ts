import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = `http://localhost:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [
    // The router plugin rewrites route files (code splitting) before React's transform sees them.
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: "src/web/routes",
      generatedRouteTree: "src/web/routeTree.gen.ts",
      quoteStyle: "double",
    }),
    react(),
    tailwindcss(),
  ],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    // No changeOrigin: the API compares Origin with Host to stop cross-site requests, so Host must
    // stay the one the browser used.
    proxy: {
      "/trpc": { target: apiTarget },
      "/api": { target: apiTarget },
    },
  },
  build: {
    outDir: "dist/web",
    emptyOutDir: true,
    sourcemap: true,
  },
});
