#!/usr/bin/env node
// Renders the app's PNG icons from public/favicon.svg with sharp (libvips), so every icon is the same
// drawing as the favicon. The PNGs are committed: a build never needs a native image library, and this
// script is run again only when the drawing changes (`npm run icons`). Decision 190.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const publicDir = path.join(root, "public");
const iconDir = path.join(publicDir, "icons");
const favicon = fs.readFileSync(path.join(publicDir, "favicon.svg"), "utf8");

// The favicon's drawing without its outer <svg> element and rounded tile, for the maskable icon.
const inner = favicon
  .replace(/^[\s\S]*?<svg[^>]*>/, "")
  .replace(/<\/svg>\s*$/, "")
  .replace(/<rect width="64" height="64"[^>]*\/>/, "");
const tile = /<rect width="64" height="64"[^>]*fill="(#[0-9a-f]{6})"/i.exec(favicon);
if (!tile) throw new Error("public/favicon.svg no longer starts with its 64×64 coloured tile");

// A maskable icon is cropped by the launcher to a circle, squircle or rounded square: the background
// must fill the whole square, and the drawing must stay inside the central circle of 40% radius. The
// cards span 36×28 of 64 around the centre (a radius of about 23 units, inside 25.6); shrinking
// them to 80% leaves a margin for launchers that crop tighter than the specification.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="${tile[1]}"/>
  <g transform="translate(32 32) scale(0.8) translate(-32 -32)">${inner}</g>
</svg>`;

const outputs = [
  { file: "icon-192.png", svg: favicon, size: 192 },
  { file: "icon-512.png", svg: favicon, size: 512 },
  { file: "icon-maskable-512.png", svg: maskable, size: 512 },
  // iOS ignores the manifest's icons and wants an opaque square (it rounds the corners itself).
  { file: "apple-touch-icon-180.png", svg: maskable, size: 180 },
];

fs.mkdirSync(iconDir, { recursive: true });
for (const { file, svg, size } of outputs) {
  // density scales the 64-unit viewBox to the target size before rasterising, so edges stay sharp.
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(iconDir, file));
  console.log(`public/icons/${file} ${size}×${size}`);
}
