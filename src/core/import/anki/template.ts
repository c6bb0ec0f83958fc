/**
 * Anki's card templates, simply: enough to turn a note into the front and back a user saw in Anki
 * for the standard note types and most custom ones (decision 180). Supported: {{Field}},
 * {{FrontSide}}, filters before the field name ({{text:F}}, {{cloze:F}}, {{type:F}}, {{hint:F}}…;
 * unknown filters show the field), sections {{#F}}…{{/F}} and {{^F}}…{{/F}}, and cloze deletions
 * {{c1::answer::hint}}. Not supported: JavaScript in templates, add-on filters' effects, image
 * occlusion.
 */

export interface RenderContext {
  /** Field name → raw field HTML. */
  fields: Map<string, string>;
  /** The cloze number being asked (1-based) for cloze note types, else null. */
  cloze: number | null;
  /** The rendered front, for {{FrontSide}} on the back. */
  frontSide?: string;
  side: "front" | "back";
}

const TAG = /\{\{([^{}]*)\}\}/g;

/** A field counts as empty, for sections and card generation, when it has no text or image. */
export function isBlankField(html: string): boolean {
  return html.replace(/<(?!img\b)[^<>]*>/gi, "").replace(/&nbsp;|\s/gi, "") === "";
}

export function renderTemplate(template: string, ctx: RenderContext): string {
  return renderSections(template, ctx).replace(TAG, (_, inner: string) =>
    renderTag(inner.trim(), ctx),
  );
}

/**
 * Resolves {{#F}}…{{/F}} and {{^F}}…{{/F}}: the first opening tag, its closing tag at the same depth
 * (the same field may nest), then again on the result, so nested sections are handled from the
 * outside in.
 */
function renderSections(template: string, ctx: RenderContext): string {
  let out = template;
  for (let guard = 0; guard < 1000; guard++) {
    const tags = [...out.matchAll(TAG)];
    const openAt = tags.findIndex((t) => /^[#^]/.test((t[1] ?? "").trim()));
    const open = tags[openAt];
    if (!open) break;
    const head = (open[1] ?? "").trim();
    const name = head.slice(1).trim();
    let depth = 0;
    let close: RegExpExecArray | RegExpMatchArray | undefined;
    for (const t of tags.slice(openAt + 1)) {
      const inner = (t[1] ?? "").trim();
      if (/^[#^]/.test(inner) && inner.slice(1).trim() === name) depth++;
      if (inner.startsWith("/") && inner.slice(1).trim() === name) {
        if (depth === 0) {
          close = t;
          break;
        }
        depth--;
      }
    }
    const start = open.index ?? 0;
    const bodyStart = start + open[0].length;
    // An unclosed section shows nothing after it, as Anki refuses such a template.
    const bodyEnd = close ? (close.index ?? out.length) : out.length;
    const after = close ? bodyEnd + close[0].length : out.length;
    const value = fieldValue(name, ctx);
    const show = head.startsWith("#") ? !isBlankField(value) : isBlankField(value);
    out = out.slice(0, start) + (show ? out.slice(bodyStart, bodyEnd) : "") + out.slice(after);
  }
  return out;
}

/** {{#c1}} in cloze templates tests whether the note has that cloze number. */
function fieldValue(name: string, ctx: RenderContext): string {
  const cloze = /^c(\d+)$/i.exec(name);
  if (cloze && !ctx.fields.has(name)) {
    return Number(cloze[1]) === ctx.cloze ? "x" : "";
  }
  return ctx.fields.get(name) ?? "";
}

function renderTag(inner: string, ctx: RenderContext): string {
  if (inner === "FrontSide") return ctx.frontSide ?? "";
  const parts = inner.split(":");
  const name = (parts.pop() ?? "").trim();
  const filters = parts.map((p) => p.trim().toLowerCase());
  const value = ctx.fields.get(name);
  if (value === undefined) return "";
  if (filters.includes("type")) {
    // The typed answer box: nothing on the front; the expected answer on the back.
    if (ctx.side === "front") return "";
    return filters.includes("cloze") && ctx.cloze !== null ? clozeAnswers(value, ctx.cloze) : value;
  }
  if (filters.includes("cloze"))
    return ctx.cloze === null ? value : renderCloze(value, ctx.cloze, ctx.side);
  if (filters.includes("text")) return value.replace(/<[^<>]*>/g, "");
  return value;
}

/** {{c1::answer}} or {{c1::answer::hint}}, lazily so that neighbouring clozes stay apart. */
const CLOZE = /\{\{c(\d+)::([\s\S]*?)\}\}/g;

/** 'answer::hint' → [answer, hint]. */
function splitHint(inner: string): [string, string] {
  const at = inner.indexOf("::");
  return at === -1 ? [inner, ""] : [inner.slice(0, at), inner.slice(at + 2)];
}

/** The cloze numbers a field uses, ascending. */
export function clozeNumbers(html: string): number[] {
  const found = new Set<number>();
  for (const m of html.matchAll(CLOZE)) found.add(Number(m[1]));
  return [...found].filter((n) => n > 0).sort((a, b) => a - b);
}

export function renderCloze(html: string, n: number, side: "front" | "back"): string {
  return html.replace(CLOZE, (_, num: string, inner: string) => {
    const [answer, hint] = splitHint(inner);
    if (Number(num) !== n) return answer;
    if (side === "back") return `<b>${answer}</b>`;
    return hint ? `[${hint}]` : "[...]";
  });
}

function clozeAnswers(html: string, n: number): string {
  const answers: string[] = [];
  for (const m of html.matchAll(CLOZE))
    if (Number(m[1]) === n) answers.push(splitHint(m[2] ?? "")[0]);
  return answers.join(", ");
}
