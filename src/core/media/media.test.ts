import { describe, expect, it } from "vitest";
import {
  flashcardHtml,
  imageHashes,
  MEDIA_MESSAGES,
  prepareImage,
  sanitizeSvg,
  sniffImageType,
  toDisplayHtml,
} from ".";
import { MEDIA } from "../constants";

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);
const HASH = "0123456789abcdef".repeat(4);

describe("sniffImageType", () => {
  it("reads each allowed type from its bytes, whatever the file is called", () => {
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe(
      "image/png",
    );
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe("image/jpeg");
    expect(sniffImageType(text("GIF89a\x01\x00"))).toBe("image/gif");
    expect(sniffImageType(text("GIF87a\x01\x00"))).toBe("image/gif");
    expect(sniffImageType(text("RIFF\x10\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(text('<?xml version="1.0"?>\n<!-- c --><svg></svg>'))).toBe(
      "image/svg+xml",
    );
    expect(sniffImageType(text("\ufeff  <svg xmlns='x'/>"))).toBe("image/svg+xml");
  });

  it("refuses what is not an image: text, HTML, a PDF, a truncated signature, RIFF that is not WebP", () => {
    for (const b of [
      text("hello"),
      text("<html><svg></svg></html>"),
      text("%PDF-1.7"),
      bytes(0x89, 0x50, 0x4e),
      text("RIFF\x10\x00\x00\x00WAVEfmt "),
      bytes(0xc3, 0x28, 0x3c, 0x73, 0x76, 0x67), // invalid UTF-8 before '<svg'
      new Uint8Array(0),
    ]) {
      expect(sniffImageType(b)).toBeNull();
    }
  });
});

describe("prepareImage", () => {
  it("refuses an image that is not an image, an empty file and one over 5 MB, in words", () => {
    expect(prepareImage(text("not a picture"))).toEqual({
      ok: false,
      message: MEDIA_MESSAGES.NOT_AN_IMAGE,
    });
    expect(prepareImage(new Uint8Array(0))).toEqual({ ok: false, message: MEDIA_MESSAGES.EMPTY });
    const big = new Uint8Array(MEDIA.MAX_BYTES + 1);
    big.set([0xff, 0xd8, 0xff]);
    expect(prepareImage(big)).toEqual({ ok: false, message: MEDIA_MESSAGES.TOO_LARGE });
    expect(MEDIA_MESSAGES.NOT_AN_IMAGE).toMatch(/not an image/);
  });

  it("keeps raster bytes as they are and stores an SVG sanitized", () => {
    const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3);
    expect(prepareImage(png)).toEqual({ ok: true, mimeType: "image/png", bytes: png });
    const svg = prepareImage(text('<svg onload="alert(1)"><circle r="1"/></svg>'));
    expect(svg.ok).toBe(true);
    const out = new TextDecoder().decode((svg as { bytes: Uint8Array }).bytes);
    expect(out).toBe('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1" /></svg>');
  });

  it("finds no drawing where no <svg> element is left", () => {
    expect(sanitizeSvg("<p>no drawing here</p>")).toBeNull();
    expect(sanitizeSvg("<script><svg></svg></script>")).toBeNull();
  });
});

describe("sanitizeSvg against XSS payloads", () => {
  const PAYLOADS = [
    '<svg onload="alert(1)"><rect width="1"/></svg>',
    "<svg><script>alert(1)</script><rect/></svg>",
    '<svg><script href="data:,alert(1)"/></svg>',
    '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
    '<svg><a xlink:href="javascript:alert(1)"><rect/></a></svg>',
    '<svg><use href="https://evil.test/x.svg#a"/></svg>',
    '<svg><use xlink:href="data:image/svg+xml;base64,PHN2Zz4="/></svg>',
    '<svg><image href="https://evil.test/track.png"/></svg>',
    "<svg><foreignObject><iframe src='javascript:alert(1)'></iframe></foreignObject></svg>",
    '<svg><animate attributeName="href" to="javascript:alert(1)"/></svg>',
    '<svg><set attributeName="onmouseover" to="alert(1)"/></svg>',
    "<svg><style>@import url(https://evil.test/x.css);</style></svg>",
    '<svg><rect style="fill:url(https://evil.test/x)"/></svg>',
    '<svg><rect fill="url(&quot;https://evil.test/x&quot;)"/></svg>',
    '<svg><rect style="background:expression(alert(1))"/></svg>',
    '<!DOCTYPE svg [<!ENTITY a "<script>alert(1)</script>">]><svg>&a;</svg>',
    "<svg><![CDATA[<script>alert(1)</script>]]></svg>",
    '<svg><rect onclick="alert(1)" onmouseover="alert(1)"/></svg>',
    "<svg><SCRIPT>alert(1)</SCRIPT></svg>",
    '<svg><handler type="application/ecmascript">alert(1)</handler></svg>',
  ];

  it.each(PAYLOADS)("leaves nothing that runs or loads: %s", (payload) => {
    const out = sanitizeSvg(payload) ?? "";
    expect(out).not.toMatch(
      /<script|<iframe|<foreignObject|<image|<a[\s>]|<animate|<set|<style|<handler/i,
    );
    expect(out).not.toMatch(/\son[a-z]+=/i);
    expect(out).not.toMatch(
      /javascript:|data:|https?:\/\/(?!www\.w3\.org\/)|expression|@import|ENTITY|&a;/i,
    );
  });

  it("keeps the drawing, in SVG's spelling (viewBox, linearGradient, local references)", () => {
    const svg =
      '<svg viewBox="0 0 10 10" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
      '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
      '<rect width="10" height="10" fill="url(#g)"/><use xlink:href="#g"/><text x="1">a &lt; b</text></svg>';
    expect(sanitizeSvg(svg)).toBe(
      '<svg viewBox="0 0 10 10" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
        '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="red" /></linearGradient></defs>' +
        '<rect width="10" height="10" fill="url(#g)" /><use xlink:href="#g" /><text x="1">a &lt; b</text></svg>',
    );
  });
});

describe("flashcard HTML", () => {
  it("keeps formatting and hash images only; XSS payloads through the editor leave nothing that runs", () => {
    const html = flashcardHtml(
      `<b>bold</b><ul><li>x</li></ul><img src="${HASH}" alt="scan"><img src="scan.png">` +
        `<img src="https://evil.test/t.png"><img src=x onerror=alert(1)><script>alert(1)</script>` +
        `<a href="javascript:alert(1)">link</a><svg onload=alert(1)></svg><iframe src="//evil.test"></iframe>` +
        `<p style="background:url(https://evil.test)" onclick="alert(1)">p</p>`,
    );
    expect(html).toBe(`<b>bold</b><ul><li>x</li></ul><img src="${HASH}" alt="scan">link<p>p</p>`);
    expect(imageHashes(html)).toEqual([HASH]);
  });

  it("points hash images at /api/media for display, sanitizing again", () => {
    expect(toDisplayHtml(`<i>x</i><img src="${HASH}"><img src="x" onerror="alert(1)">`)).toBe(
      `<i>x</i><img src="/api/media/${HASH}" loading="lazy">`,
    );
  });

  it("lists each image once, in order", () => {
    const other = "f".repeat(64);
    expect(imageHashes(`<img src="${other}"><img src="${HASH}"><img src="${other}">`)).toEqual([
      other,
      HASH,
    ]);
  });
});

describe("sanitizeSvg reads values as the browser will", () => {
  it.each([
    '<svg><rect fill="u&#114;l(https://evil.test/x)"/></svg>',
    '<svg><rect style="fill:u\\72l(https://evil.test/x)"/></svg>',
    '<svg><use href="&#106;avascript:alert(1)"/></svg>',
    '<svg><rect fill="url(#a) url(https://evil.test/x)"/></svg>',
  ])("drops an attribute whose decoded value loads from elsewhere: %s", (payload) => {
    const out = sanitizeSvg(payload) ?? "";
    expect(out).not.toMatch(/evil|javascript|&#/i);
    expect(out).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg">/);
  });

  it("writes kept values escaped for XML", () => {
    expect(sanitizeSvg('<svg><text font-family="A &amp; B">x &amp; y</text></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"><text font-family="A &amp; B">x &amp; y</text></svg>',
    );
  });
});
