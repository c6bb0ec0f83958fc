import type { RestRegistrar } from "./route";

/**
 * Images (issue 17). A stored image never changes (its key is the hash of its bytes), so a browser may
 * keep it for a year, privately (it is shown only to those who can see a question showing it). An SVG
 * is sandboxed so that, opened on its own, nothing in it could run or load (decision 231).
 */
export const registerMediaRoutes: RestRegistrar = (route) => {
  route("GET", "/api/media/:sha256", async (caller, req, reply) => {
    const { sha256 } = req.params as { sha256: string };
    const file = await caller.media.get({ sha256 });
    const etag = `"${file.sha256}"`;
    reply.header("Cache-Control", "private, max-age=31536000, immutable");
    reply.header("ETag", etag);
    reply.header("X-Content-Type-Options", "nosniff");
    if (file.mimeType === "image/svg+xml") {
      reply.header(
        "Content-Security-Policy",
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
    }
    if (req.headers["if-none-match"] === etag) return reply.status(304).send();
    reply.header("Content-Type", file.mimeType);
    return reply
      .status(200)
      .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
  });
};
