import { describe, expect, it } from "vitest";
import { decodeEntities, htmlToText, imageNames, sanitizeHtml, stripSounds } from "./html";
import { clozeNumbers, renderTemplate } from "./template";

/** Classic payloads (OWASP's filter-evasion list and friends): none may leave anything active. */
const XSS = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>",
  "<IMG SRC=\"javascript:alert('XSS');\">",
  "<IMG SRC=javascript:alert('XSS')>",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
  "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
  '<img src=x onerror="alert(1)">',
  "<img src=x onerror=alert(1)//",
  "<svg/onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  "<body onload=alert(1)>",
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '<div style="background-image: url(javascript:alert(1))">x</div>',
  "<style>@import 'http://xss.example/xss.css';</style>",
  '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  "<TABLE BACKGROUND=\"javascript:alert('XSS')\"><tr><td>x</td></tr></TABLE>",
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<<SCRIPT>alert("XSS");//<</SCRIPT>',
  '<form action="https://evil.example"><input type="submit"></form>',
  "<details open ontoggle=alert(1)>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  "<!--<img src=x onerror=alert(1)>-->",
  '<p title="</p><script>alert(1)</script>">x</p>',
  '<img src="//evil.example/a.png">',
];

describe("sanitizeHtml", () => {
  it.each(XSS)("leaves nothing active in %s", (payload) => {
    const out = sanitizeHtml(payload);
    expect(out).not.toMatch(
      /<script|<iframe|<object|<svg|<style|<link|<meta|<form|<input|<body|<details|<math/i,
    );
    expect(out).not.toMatch(/\son[a-z]+\s*=/i); // event handlers
    expect(out).not.toMatch(/javascript:|data:|https?:|\/\/evil/i);
    expect(out).not.toMatch(/\sstyle\s*=|\shref\s*=|\sbackground\s*=/i);
  });

  it("keeps line breaks, lists, emphasis, tables, sub/superscripts and local images", () => {
    const html =
      "<div>Na<sup>+</sup> and H<sub>2</sub>O</div><ul><li><b>bold</b></li><li><i>italic</i></li></ul>" +
      "<table><tr><th>Drug</th><th>Dose</th></tr><tr><td>Li</td><td>300 mg</td></tr></table>" +
      '<br><img src="scan 1.png" alt="MRI">';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it("drops styles, classes, colours and links but keeps their text", () => {
    expect(
      sanitizeHtml(
        '<span style="color:red" class="x"><font color="#000">A</font> <a href="https://x.org">site</a></span>',
      ),
    ).toBe("<span>A site</span>");
  });
});

describe("htmlToText", () => {
  it("turns structure into lines and decodes entities", () => {
    expect(
      htmlToText(
        "<div>Stem&nbsp;text</div><div><br></div> <div>A. one &amp; two</div>\n<div>B. &lt;three&gt;</div>",
      ),
    ).toBe("Stem\u00a0text\n\nA. one & two\nB. <three>");
    expect(htmlToText("<ul><li>first</li><li>second</li></ul>after")).toBe(
      "• first\n• second\nafter",
    );
    expect(
      htmlToText("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"),
    ).toBe("a | b\nc | d");
  });

  it("writes super- and subscripts as characters, or with ^ and _ when Unicode has none", () => {
    expect(
      htmlToText(
        "10<sup>6</sup> cells, Ca<sup>2+</sup>, H<sub>2</sub>O, x<sup>ab</sup>, CO<sub>x</sub>",
      ),
    ).toBe("10⁶ cells, Ca²⁺, H₂O, x^(ab), CO_x");
  });

  it("drops scripts with their content", () => {
    expect(htmlToText("a<script>alert('x')</script>b<style>p{}</style>c")).toBe("abc");
  });
});

describe("entities, sounds, images", () => {
  it("decodes named, decimal and hex references; leaves unknown names", () => {
    expect(
      decodeEntities(
        "&alpha;&Beta;&mu;g &eacute;&yuml;&iexcl; &#8805; &#x3b2; &bogus; &#0; &amp;lt;",
      ),
    ).toBe("αΒμg éÿ¡ ≥ β &bogus; \ufffd &lt;");
    expect(decodeEntities("&sigmaf;&Sigma;&Omega;&omega;&plusmn;&deg;&times;")).toBe("ςΣΩω±°×");
  });

  it("removes [sound:…] references and reports them", () => {
    expect(stripSounds("Say it [sound:a.mp3] twice[sound:b b.ogg]")).toEqual({
      html: "Say it  twice",
      sounds: ["a.mp3", "b b.ogg"],
    });
  });

  it("lists local images once, never remote or data: ones", () => {
    expect(
      imageNames(
        '<img src="a.png"><IMG SRC=\'b&amp;c.jpg\'><img src=a.png><img src="http://x/y.png"><img src="data:image/png;base64,AA">',
      ),
    ).toEqual(["a.png", "b&c.jpg"]);
  });
});

describe("templates", () => {
  const fields = new Map([
    ["Front", "Q"],
    ["Back", "A"],
    ["Extra", ""],
    ["Text", "{{c1::one}} {{c2::two::hint}} {{c3::three}}"],
  ]);

  it("nested and inverted sections, filters, FrontSide", () => {
    const t =
      "{{#Front}}[{{#Back}}{{Back}}{{^Extra}}!{{/Extra}}{{/Back}}]{{/Front}}{{#Extra}}never{{/Extra}}{{hint:Front}}";
    expect(renderTemplate(t, { fields, cloze: null, side: "front" })).toBe("[A!]Q");
    expect(
      renderTemplate("{{FrontSide}}|{{type:Back}}", {
        fields,
        cloze: null,
        side: "back",
        frontSide: "F",
      }),
    ).toBe("F|A");
    expect(renderTemplate("{{type:Back}}", { fields, cloze: null, side: "front" })).toBe("");
    expect(renderTemplate("{{Missing}}x", { fields, cloze: null, side: "front" })).toBe("x");
  });

  it("cloze numbers, hints and the typed cloze answer", () => {
    expect(clozeNumbers(fields.get("Text") ?? "")).toEqual([1, 2, 3]);
    expect(renderTemplate("{{cloze:Text}}", { fields, cloze: 2, side: "front" })).toBe(
      "one [hint] three",
    );
    expect(renderTemplate("{{cloze:Text}}", { fields, cloze: 2, side: "back" })).toBe(
      "one <b>two</b> three",
    );
    expect(renderTemplate("{{type:cloze:Text}}", { fields, cloze: 3, side: "back" })).toBe("three");
    expect(
      renderTemplate("{{#c2}}has c2{{/c2}}{{#c9}}no{{/c9}}", { fields, cloze: 2, side: "front" }),
    ).toBe("has c2");
  });
});
