import xss from "xss";
import { decodeEntities } from "../import/anki/html";

// xss is CommonJS (see import/anki/html.ts for why the classes come off the module object).
const { FilterXSS } = xss as unknown as typeof import("xss");

/**
 * SVG is XML and case-sensitive; the filter matches names lower-cased and writes them so, which would
 * break `viewBox` or `linearGradient`. Every kept name is listed here as SVG spells it, and the filter's
 * output is put back in that spelling.
 */
const ELEMENTS = [
  "svg",
  "g",
  "defs",
  "title",
  "desc",
  "symbol",
  "use",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "mask",
  "pattern",
  "marker",
  "filter",
  "feGaussianBlur",
  "feOffset",
  "feBlend",
  "feColorMatrix",
  "feFlood",
  "feComposite",
  "feMerge",
  "feMergeNode",
];

const ATTRIBUTES = [
  "id",
  "class",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "fx",
  "fy",
  "dx",
  "dy",
  "width",
  "height",
  "d",
  "points",
  "viewBox",
  "preserveAspectRatio",
  "transform",
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-opacity",
  "stroke-miterlimit",
  "opacity",
  "color",
  "display",
  "visibility",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "letter-spacing",
  "word-spacing",
  "textLength",
  "lengthAdjust",
  "startOffset",
  "rotate",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "clip-path",
  "clip-rule",
  "clipPathUnits",
  "mask",
  "maskUnits",
  "maskContentUnits",
  "marker-start",
  "marker-mid",
  "marker-end",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "patternUnits",
  "patternContentUnits",
  "patternTransform",
  "filter",
  "stdDeviation",
  "in",
  "in2",
  "result",
  "mode",
  "type",
  "values",
  "operator",
  "flood-color",
  "flood-opacity",
  "vector-effect",
  "shape-rendering",
  "text-rendering",
  "xml:space",
  "version",
  "xmlns",
  "xmlns:xlink",
  "href",
  "xlink:href",
  "style",
];

const SPELLING = new Map([...ELEMENTS, ...ATTRIBUTES].map((name) => [name.toLowerCase(), name]));
const whiteList = Object.fromEntries(
  ELEMENTS.map((e) => [e.toLowerCase(), ATTRIBUTES.map((a) => a.toLowerCase())]),
);

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

/**
 * Whether an attribute value (entities decoded) may stay. Links only point inside the picture (`#id`);
 * `url(…)` in a paint or a style only to `#id`; namespaces only SVG's and XLink's; no backslash (a CSS
 * escape could spell `url(` another way); nothing that could run or load.
 */
function valueAllowed(name: string, value: string): boolean {
  const v = value.trim();
  if (name === "href" || name === "xlink:href") return LOCAL_REF.test(v);
  if (name === "xmlns") return v === SVG_NS;
  if (name === "xmlns:xlink") return v === XLINK_NS;
  if (v.includes("\\")) return false;
  if (/javascript:|data:|vbscript:|expression\(|@import|behavior:|-moz-binding/i.test(v)) {
    return false;
  }
  const urls = v.match(/url\(/gi)?.length ?? 0;
  const localUrls = v.match(/url\((["']?)#[\w.-]+\1\)/gi)?.length ?? 0;
  return urls === localUrls;
}

const LOCAL_REF = /^#[\w.-]+$/;
const ALLOWED_ATTRIBUTES = new Set(ATTRIBUTES.map((a) => a.toLowerCase()));

/** An attribute value written back for XML: every special character escaped. */
function xmlAttr(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

const filter = new FilterXSS({
  whiteList,
  stripIgnoreTag: true,
  // Elements dropped with everything inside them: what can run, load, or hold HTML.
  stripIgnoreTagBody: [
    "script",
    "style",
    "foreignobject",
    "iframe",
    "object",
    "embed",
    "image",
    "a",
    "animate",
    "animatemotion",
    "animatetransform",
    "set",
    "handler",
    "listener",
    "audio",
    "video",
    "noscript",
  ],
  allowCommentTag: false,
  onIgnoreTagAttr: () => "",
  onTagAttr(_tag, name, value) {
    // Names off the list are left to the filter, which drops them.
    if (!ALLOWED_ATTRIBUTES.has(name)) return undefined;
    // Checked as the browser will read it (entities decoded), then written back escaped.
    const decoded = decodeEntities(value);
    return valueAllowed(name, decoded) ? `${name}="${xmlAttr(decoded)}"` : "";
  },
});

/** Declarations, processing instructions, doctypes (entities) and CDATA: none is needed to draw. */
const MARKUP_DECLARATIONS =
  /<\?[\s\S]*?\?>|<!DOCTYPE[^[>]*(?:\[[^\]]*\][^>]*)?>|<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/gi;

/** Puts the filter's lower-cased names back in SVG's spelling, in tags only (text is left alone). */
function respell(svg: string): string {
  return svg.replace(
    /<(\/?)([a-z][a-z0-9]*)(\s[^<>]*|\/)?>/gi,
    (_, slash: string, tag: string, rest) => {
      const attrs = ((rest as string | undefined) ?? "").replace(
        /(\s)([a-z][a-z0-9:-]*)(?==")/gi,
        (__, space: string, name: string) => space + (SPELLING.get(name.toLowerCase()) ?? name),
      );
      return `<${slash}${SPELLING.get(tag.toLowerCase()) ?? tag}${attrs}>`;
    },
  );
}

/**
 * A drawing-only copy of an SVG: shapes, text, gradients, clips, masks and a few filters, with their
 * presentation attributes; no script, style sheet, event handler, foreign HTML, animation, external
 * link or resource (decision 231). The root <svg> carries the SVG namespace, without which a browser
 * will not draw the file as an image. Null when no <svg> element is left.
 */
export function sanitizeSvg(text: string): string | null {
  const cleaned = respell(filter.process(text.replace(MARKUP_DECLARATIONS, "")))
    // With the doctype gone, XML knows only its five entities: any other would make the file unreadable.
    .replace(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/gi, "&amp;")
    .trim();
  const start = cleaned.search(/<svg[\s>/]/);
  if (start === -1) return null;
  const end = cleaned.lastIndexOf("</svg>");
  let svg = end > start ? cleaned.slice(start, end + "</svg>".length) : cleaned.slice(start);
  const root = /^<svg\b[^<>]*>/.exec(svg)![0];
  if (!/\sxmlns="/.test(root)) {
    svg = `<svg xmlns="${SVG_NS}"${svg.slice("<svg".length)}`;
  }
  if (/\sxlink:href="/.test(svg) && !/\sxmlns:xlink="/.test(root)) {
    svg = `<svg xmlns:xlink="${XLINK_NS}"${svg.slice("<svg".length)}`;
  }
  return svg;
}
