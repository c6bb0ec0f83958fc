import xss from "xss";

// xss is CommonJS and sets some exports in a loop, which Node's ESM loader cannot see as named
// exports (the CLI's bundle leaves packages external): take them from the module object, which is
// the default export under Node, Vite and Vitest alike.
const { FilterXSS, escapeAttrValue } = xss as unknown as typeof import("xss");

/**
 * Anki fields are HTML written by Anki's editor, by add-ons and by whatever was pasted into them.
 * What PRITE Study keeps: text structure (line breaks, paragraphs, lists, tables), emphasis,
 * sub/superscripts and local images. Everything else goes: scripts and styles with their content,
 * event handlers, links and any remote or data: URL (decision 180). `xss` (js-xss) does the
 * filtering: it needs no DOM, so the browser and the CLI produce the same output.
 */
const KEEP: Record<string, string[]> = {
  b: [],
  strong: [],
  i: [],
  em: [],
  u: [],
  s: [],
  del: [],
  ins: [],
  mark: [],
  sub: [],
  sup: [],
  small: [],
  br: [],
  hr: [],
  p: [],
  div: [],
  span: [],
  blockquote: [],
  pre: [],
  code: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  ul: [],
  ol: [],
  li: [],
  dl: [],
  dt: [],
  dd: [],
  table: [],
  caption: [],
  thead: [],
  tbody: [],
  tfoot: [],
  tr: [],
  th: ["colspan", "rowspan"],
  td: ["colspan", "rowspan"],
  img: ["src", "alt"],
};

/** A scheme ('https:', 'javascript:', 'data:') or a protocol-relative '//host': not a media file name. */
/**
 * Anki's media folder is flat and its file names never hold these characters (Anki replaces them
 * when it adds a file), so a name with one is a URL ('javascript:', 'https://', '//host') or a trick.
 */
const NOT_LOCAL = /[:/\\*?"<>|`]/;
const SRC = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/** The media file name an <img> refers to, or null when it points anywhere else. */
export function localImageName(tagHtml: string): string | null {
  const m = SRC.exec(tagHtml);
  const raw = m ? (m[1] ?? m[2] ?? m[3] ?? "") : "";
  const name = decodeEntities(raw).trim();
  if (name === "" || NOT_LOCAL.test(name)) return null;
  return name;
}

const filter = new FilterXSS({
  whiteList: KEEP,
  stripIgnoreTag: true,
  stripIgnoreTagBody: [
    "script",
    "style",
    "noscript",
    "template",
    "iframe",
    "object",
    "svg",
    "math",
  ],
  allowCommentTag: false,
  onTag(tag, html, options) {
    // An image without a local file name would make the browser fetch something: drop it whole.
    if (
      tag === "img" &&
      !(options as { isClosing?: boolean }).isClosing &&
      localImageName(html) === null
    ) {
      return "";
    }
    return undefined;
  },
  onTagAttr(tag, name, value) {
    if (tag === "img" && name === "src") {
      const local = localImageName(` src="${value}"`);
      return local === null ? "" : `src="${escapeAttrValue(local)}"`;
    }
    return undefined;
  },
});

/** Safe HTML for display: the subset above, nothing that runs or loads from elsewhere. */
export function sanitizeHtml(html: string): string {
  return filter.process(html).trim();
}

const IMG_TAG = /<img\b[^<>]*>/gi;

/** Media file names of the <img> tags in `html`, in order, each once. */
export function imageNames(html: string): string[] {
  const names: string[] = [];
  for (const m of html.matchAll(IMG_TAG)) {
    const name = localImageName(m[0]);
    if (name !== null && !names.includes(name)) names.push(name);
  }
  return names;
}

const SOUND = /\[sound:([^\]]*)\]/g;

/** Removes Anki's `[sound:file.mp3]` references, returning the file names it removed. */
export function stripSounds(html: string): { html: string; sounds: string[] } {
  const sounds: string[] = [];
  const out = html.replace(SOUND, (_, name: string) => {
    sounds.push(name);
    return "";
  });
  return { html: out, sounds };
}

const SUPERSCRIPT: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
  "+": "⁺",
  "-": "⁻",
  "−": "⁻",
  "=": "⁼",
  "(": "⁽",
  ")": "⁾",
  n: "ⁿ",
  i: "ⁱ",
};
const SUBSCRIPT: Record<string, string> = {
  "0": "₀",
  "1": "₁",
  "2": "₂",
  "3": "₃",
  "4": "₄",
  "5": "₅",
  "6": "₆",
  "7": "₇",
  "8": "₈",
  "9": "₉",
  "+": "₊",
  "-": "₋",
  "−": "₋",
  "=": "₌",
  "(": "₍",
  ")": "₎",
};

/** 'x²', 'H₂O'; where Unicode has no such character, 'x^(n+k)' / 'x_(ij)' keeps the meaning. */
function scriptText(text: string, table: Record<string, string>, mark: string): string {
  const chars = [...text];
  if (chars.length > 0 && chars.every((c) => table[c] !== undefined)) {
    return chars.map((c) => table[c]).join("");
  }
  return chars.length === 1 ? `${mark}${text}` : `${mark}(${text})`;
}

/**
 * Readable plain text of (sanitized or raw) HTML, for the multiple-choice question model, whose
 * text is plain everywhere (study, exams, search, duplicate check). Source line breaks are HTML
 * whitespace; <br>, blocks and list items make the lines; cells are joined with ' | '; at most one
 * blank line is kept in a row.
 */
export function htmlToText(html: string): string {
  const tokens = sanitizeHtml(html)
    .replace(/[ \t\r\n\f]+/g, " ")
    .split(/(<[^<>]*>)/);
  let text = "";
  // Text inside <sup>/<sub> is collected, then written as super/subscript characters.
  let script: { mark: "^" | "_"; text: string } | null = null;
  for (const token of tokens) {
    if (!token.startsWith("<")) {
      if (script) script.text += token;
      // Spaces between blocks are HTML whitespace, not the start of the next line.
      else text += atLineStart(text) ? token.trimStart() : token;
      continue;
    }
    const tag = /^<(\/?)([a-z0-9]+)/i.exec(token);
    const closing = tag?.[1] === "/";
    const name = (tag?.[2] ?? "").toLowerCase();
    if (name === "sup" || name === "sub") {
      if (!closing) script = { mark: name === "sup" ? "^" : "_", text: "" };
      else if (script) {
        const inner = decodeEntities(script.text);
        text += escapeForDecode(
          scriptText(inner, script.mark === "^" ? SUPERSCRIPT : SUBSCRIPT, script.mark),
        );
        script = null;
      }
    } else if (name === "br") {
      text += "\n";
    } else if (name === "li" && !closing) {
      text += atLineStart(text) ? "• " : "\n• ";
    } else if ((name === "td" || name === "th") && closing) {
      text += "\t";
    } else if ((BLOCK.has(name) || (closing && CLOSE_BREAK.has(name))) && !atLineStart(text)) {
      // A block starts and ends a line, as a browser lays it out: '<div>a</div><div>b</div>' is
      // two lines, not three; an empty line needs a <br> ('<div><br></div>').
      text += "\n";
    }
  }
  if (script) text += script.text;
  const lines = decodeEntities(text)
    .split("\n")
    .map((line) => trimEnd(line, "\t").replace(/\t/g, " | ").replace(/ {2,}/g, " ").trim());
  const out: string[] = [];
  for (const line of lines) {
    if (line === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

function atLineStart(text: string): boolean {
  return text === "" || text.endsWith("\n");
}

/** `text` without the run of `char` it ends with (a regex /x+$/ is quadratic on long runs). */
function trimEnd(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/** Blocks break the line where they open and close (<br> is handled apart: it always breaks). */
const BLOCK = new Set([
  "p",
  "div",
  "ul",
  "ol",
  "dl",
  "table",
  "blockquote",
  "pre",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "tr",
  "caption",
  "hr",
]);
const CLOSE_BREAK = new Set(["li", "dt", "dd"]);

/** Text already decoded, put back among text that will be decoded once more. */
function escapeForDecode(text: string): string {
  return text.replace(/&/g, "&amp;");
}

/**
 * Named entities seen in Anki decks: Anki's editor writes &nbsp; &amp; &lt; &gt; &quot;, pasted
 * web text brings typography, Latin-1 letters and Greek (units and drug names: μ, α, β). Numeric
 * references cover everything else; an unknown name is left as written.
 */
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ndash: "–",
  mdash: "—",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  hellip: "…",
  bull: "•",
  middot: "·",
  prime: "′",
  Prime: "″",
  dagger: "†",
  Dagger: "‡",
  permil: "‰",
  trade: "™",
  euro: "€",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  harr: "↔",
  rArr: "⇒",
  lArr: "⇐",
  hArr: "⇔",
  le: "≤",
  ge: "≥",
  ne: "≠",
  asymp: "≈",
  equiv: "≡",
  infin: "∞",
  minus: "−",
  sum: "∑",
  radic: "√",
  part: "∂",
  int: "∫",
  prop: "∝",
  there4: "∴",
  thinsp: "\u2009",
  ensp: "\u2002",
  emsp: "\u2003",
  zwj: "\u200d",
  zwnj: "\u200c",
  lrm: "\u200e",
  rlm: "\u200f",
  shy: "\u00ad",
  loz: "◊",
  spades: "♠",
  hearts: "♥",
  clubs: "♣",
  diams: "♦",
  sdot: "⋅",
  deg: "°",
};
const LATIN1 =
  "iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml";
LATIN1.split(" ").forEach((name, k) => (NAMED[name] ??= String.fromCodePoint(161 + k)));
const GREEK =
  "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega";
GREEK.split(" ").forEach((name, k) => {
  NAMED[name] = String.fromCodePoint(945 + k);
  // Capitals sit 32 below; there is no capital final sigma (U+03A2 is unassigned).
  if (name !== "sigmaf")
    NAMED[name[0]!.toUpperCase() + name.slice(1)] = String.fromCodePoint(913 + k);
});

export function decodeEntities(text: string): string {
  return text.replace(
    /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});?/gi,
    (whole, body: string) => {
      if (body[0] === "#") {
        const code =
          body[1] === "x" || body[1] === "X"
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10);
        // NUL, surrogates and out-of-range references become U+FFFD, as HTML does.
        if (
          !Number.isFinite(code) ||
          code === 0 ||
          code > 0x10ffff ||
          (code >= 0xd800 && code <= 0xdfff)
        ) {
          return "\ufffd";
        }
        return String.fromCodePoint(code);
      }
      return NAMED[body] ?? whole;
    },
  );
}
