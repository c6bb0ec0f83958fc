import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import {
  isLayout,
  layoutsOf,
  ROUTE_PRELOADS_FILE,
  routePathOf,
  type RoutePreloads,
} from "./src/server/route-preloads";
import { VitePWA } from "vite-plugin-pwa";

/**
 * The built index.html asks for the app's stylesheet as a preload instead of a render-blocking
 * <link rel="stylesheet">: the boot screen (styled inline) paints as soon as the document is parsed,
 * and the bundle applies the sheet before its first render (src/web/lib/stylesheets.ts, decision 275).
 * Lighthouse counted the entry script, fetched while the browser waited for the sheet, in the first
 * paint.
 */
function stylesheetOffTheFirstPaint(): Plugin {
  return {
    name: "prite:stylesheet-off-the-first-paint",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html) {
        const sheet = /<link rel="stylesheet"( crossorigin)? href="(\/assets\/[^"]+\.css)">/g;
        if (!sheet.test(html))
          throw new Error("index.html: the entry stylesheet's <link> was not found");
        return html.replace(sheet, '<link rel="preload" as="style"$1 href="$2">');
      },
    },
  };
}

/**
 * dist/web/route-preloads.json: for each page, the chunks of its route file and of the layouts around
 * it, with their static imports, less what the entry already loads. The server names them in a `Link`
 * header on the page's HTML, so they download with the entry script instead of after it has run
 * (src/server/route-preloads.ts, decision 418).
 */
function routePreloads(): Plugin {
  const ROUTE_MODULE = /[\\/]src[\\/]web[\\/]routes[\\/](.+)\.tsx(?:\?|$)/;
  return {
    name: "prite:route-preloads",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { imports: string[]; moduleIds: string[] }>();
      const chunkCss = new Map<string, Set<string>>();
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type !== "chunk") continue;
        chunks.set(fileName, output);
        chunkCss.set(fileName, output.viteMetadata?.importedCss ?? new Set());
      }
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const queue = [...start];
        while (queue.length > 0) {
          const file = queue.pop()!;
          if (seen.has(file)) continue;
          seen.add(file);
          queue.push(...(chunks.get(file)?.imports ?? []));
        }
        return seen;
      };
      const entries = Object.values(bundle).flatMap((o) =>
        o.type === "chunk" && o.isEntry ? [o.fileName] : [],
      );
      const initial = closure(entries);
      // Each route file's chunks: where its split parts (`?tsr-split=…`) ended up.
      const byRoute = new Map<string, Set<string>>();
      for (const [fileName, chunk] of chunks) {
        for (const id of chunk.moduleIds) {
          const route = ROUTE_MODULE.exec(id.replace(/\\/g, "/"))?.[1];
          if (!route) continue;
          const files = byRoute.get(route) ?? new Set<string>();
          files.add(fileName);
          byRoute.set(route, files);
        }
      }
      const routeFiles = [...byRoute.keys()];
      const preloads: RoutePreloads = { entry: { scripts: [], styles: [] }, routes: [] };
      for (const route of routeFiles) {
        if (isLayout(route, routeFiles)) continue;
        const own = [route, ...layoutsOf(route, routeFiles)].flatMap((r) => [...byRoute.get(r)!]);
        const files = [...closure(own)].filter((file) => !initial.has(file)).sort();
        if (files.length > 0) {
          preloads.routes.push({ path: routePathOf(route), files: files.map((f) => `/${f}`) });
        }
      }
      preloads.routes.sort((a, b) => a.path.localeCompare(b.path));
      // The entry's own files lead the header: the page's chunks are of no use before it has run.
      const entryFirst = (a: string, b: string) =>
        Number(!entries.includes(a)) - Number(!entries.includes(b));
      preloads.entry = {
        scripts: [...initial]
          .sort()
          .sort(entryFirst)
          .map((f) => `/${f}`),
        styles: entries.flatMap((f) => [...(chunkCss.get(f) ?? [])]).map((f) => `/${f}`),
      };
      this.emitFile({
        type: "asset",
        fileName: ROUTE_PRELOADS_FILE,
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}

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
    stylesheetOffTheFirstPaint(),
    routePreloads(),
    // The installable app (issue 18, docs/decisions/190): a Workbox service worker that precaches the
    // shell and nothing else. Registration is the app's own (src/web/pwa), after the first render.
    VitePWA({
      // A new version waits until the user says so: never reload under a resident mid-question.
      registerType: "prompt",
      injectRegister: false,
      // The icons are in the precache through globPatterns already; listing them twice adds nothing.
      includeManifestIcons: false,
      manifest: {
        name: "PRITE Study",
        short_name: "PRITE Study",
        description: "A collaborative flashcard system for PRITE exam preparation",
        id: "/",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: "#f6f8f8",
        theme_color: "#0f766e",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          {
            src: "/icons/icon-maskable-512.png",
            sizes: "512x512",
            type: "image/png",
            purpose: "maskable",
          },
          { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
        ],
      },
      workbox: {
        // The shell: every script and style of the build (pages are lazy chunks, so offline pages
        // need them too), index.html, the icons. Not the .br/.gz copies (written after this) nor maps.
        globPatterns: ["**/*.{js,css,html,svg,png,woff2,webmanifest}"],
        // SheetJS (160 KB gzip) and the Anki reader with sql.js serve the import screens and zxcvbn's dictionaries (235 KB gzip) the
        // password forms: all of them need the server anyway, so a phone should not download them on
        // its first visit just to have them offline.
        globIgnores: [
          "**/xlsx-*.js",
          "**/password-checker-*.js",
          "**/sql-wasm-browser-*.js",
          "**/anki-reader-*.js",
        ],
        // SPA routes open offline from the precached index.html; the API never does: a navigation
        // to /api or /trpc (a REST link, a download) must reach the server or fail as the network fails.
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api(?:\/|$)/, /^\/trpc(?:\/|$)/],
        // No runtimeCaching: the worker stores nothing but the precache, so no API answer (least of
        // all /api/auth/*) is ever kept by it; offline data is the app's own, per user (issue 18).
        cleanupOutdatedCaches: true,
        clientsClaim: false,
        skipWaiting: false,
      },
    }),
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
    rolldownOptions: {
      output: {
        // Fewer, larger chunks (issue 20, decision 255): a phone on slow 4G talks HTTP/1.1 to the
        // server, six connections at a time, so every extra wave of small files costs a round trip
        // before the first screen. Left to itself the bundler split the first load into eight files and
        // each signed-in page into twenty or more (an icon, a card, a label each in a file of its own).
        codeSplitting: {
          groups: [
            // Everything the entry loads statically: one file (the budget of scripts/check-bundle.mjs).
            { name: "index", tags: ["$initial"], priority: 3 },
            // The signed-in frame and the pieces nearly every page draws: one file for all of them (with
            // the light stand-in of a Select, whose Radix code is in `forms` and loads when wanted; and
            // without the phone's More sheet, on Radix's Dialog, which loads when More is first wanted).
            {
              name: "app",
              priority: 2,
              test: /src[\\/]web[\\/](routes[\\/]_app\.tsx|components[\\/]layout[\\/](?!more-sheet)|offline[\\/](offline-provider|store|sync-banner)\.tsx?|lib[\\/]after-paint\.ts|components[\\/]ui[\\/](alert|badge|button|card|input|label|progress|spinner|lazy-select|select-trigger)\.tsx?)|node_modules[\\/]lucide-react[\\/]/,
            },
            // Radix's small pieces that Tabs shares with the form controls: a file of their own, so a
            // page with tabs (Import, Settings) does not download the Dialog and Select of `forms` for
            // them (issue 35 item 2, decision 421).
            {
              name: "radix",
              priority: 2,
              test: /node_modules[\\/]@radix-ui[\\/](primitive|react-(collection|presence|id|direction|use-controllable-state|use-callback-ref|use-layout-effect|use-effect-event))[\\/]/,
            },
            // The form controls of Study, Browse and the other pages with filters or dialogs.
            {
              name: "forms",
              priority: 1,
              test: /src[\\/]web[\\/]components[\\/]ui[\\/](checkbox|dialog|select|textarea)\.tsx/,
            },
          ],
        },
      },
    },
  },
});
