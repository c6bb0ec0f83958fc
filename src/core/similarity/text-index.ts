/**
 * Exact search for stored texts whose bigram similarity (docs/product/product-decisions.md) with a probe reaches a threshold.
 *
 * The duplicate check needs, for every incoming question, every visible question whose text similarity
 * could make it a flagged duplicate: score = 0.6·text + 0.4·options ≥ 0.8 needs text ≥ 2/3. Similarity
 * is the Dice coefficient of bigram multisets, 2·c / (n + m) with c the multiset overlap, so the search
 * must know c for every pair — an approximate index (trigrams, MinHash) would miss some, and English
 * texts share most of their bigrams, so no prefix of rare bigrams is selective either
 * (docs/decisions/051-exact-duplicate-index.md).
 *
 * How c is counted for all stored texts at once:
 * - A bigram's k-th occurrence in a text is its own token ("th#1", "th#2"), so multiset overlap is set
 *   overlap of tokens.
 * - Stored texts are grouped (by PRITE part) and sorted by length; the length filter (the shorter text
 *   of a pair at or above s has at least s/(2−s) of the longer's bigrams) is then a contiguous range.
 * - Tokens in at least 1/32 of a group's texts are kept as bitsets over the group; a probe adds its
 *   tokens' bitsets into per-text counters with carry-save adders (Harley–Seal), 32 texts per word.
 *   Rarer tokens keep posting lists and add into a plain counter array.
 * - The bitset counters count the probe's tokens a text lacks, from a bias that sets one bit of the
 *   counter once a text has missed too many to reach the threshold: a word of 32 texts is given up
 *   when that bit is set in all of them (decision 422).
 *
 * Pure and isomorphic like the rest of src/core: typed arrays only.
 */
import { lowerBound } from "./bit-counters";
import { similarityKey } from "./key";

/** Tokens held by at least this share of a group's texts are kept as bitsets, the rest as postings. */
const BITSET_SHARE = 1 / 32;
/**
 * Probes are compared by their first 65,535 bigrams (texts are limited far below 65,536 characters).
 * A miss counter (below) starts at a bias under 2^17 and counts at most 65,536 rows: 18 bits, the
 * carry-save adders' ones, twos, fours and eights and 14 planes above them.
 */
const MAX_PROBE_TOKENS = 65_535;
const HIGH_PLANES = 14;
/** Similarities are compared with this much slack, so rounding can only add candidates, never drop one. */
const SLACK = 1e-9;

interface Group {
  /** Positions in the caller's list, in the group's length order. */
  positions: Int32Array;
  /** Bigram count of each text, ascending. */
  lengths: Int32Array;
  /** Words per bitset row. */
  words: number;
  /** Bitset row of each token (−1: posting list), one row per token of `rows`. */
  bitRow: Int32Array;
  /** Bitsets word-major: word w of row r at `bits[w * stride + r]`; the last row is all zeros. */
  bits: Int32Array;
  stride: number;
  /** Posting lists (text indexes within the group, ascending) of the rarer tokens. */
  postingStart: Int32Array;
  postings: Int32Array;
}

/** Occurrences per bigram type kept in the dense table; later ones (rare) go to a map. */
const DENSE_OCCURRENCES = 32;

/** Token ids per bigram: a bigram type's k-th occurrence in a text is its own token. */
class TokenDictionary {
  private readonly asciiTypes = new Int32Array(128 * 128).fill(-1);
  private readonly otherTypes = new Map<number, number>();
  private typeCount = 0;
  /** Occurrences of each type in the text being tokenized (zeroed after each text). */
  private seen = new Int32Array(256);
  /** Token of the type's k-th occurrence at `type * DENSE_OCCURRENCES + k`, −1 when none yet. */
  private dense = new Int32Array(256 * DENSE_OCCURRENCES).fill(-1);
  private readonly sparse = new Map<number, number>();
  private readonly touched: number[] = [];
  size = 0;

  private typeOf(a: number, b: number, create: boolean): number {
    if (a < 128 && b < 128) {
      const slot = a * 128 + b;
      const type = this.asciiTypes[slot]!;
      if (type >= 0 || !create) return type;
      return (this.asciiTypes[slot] = this.newType());
    }
    const key = a * 65536 + b;
    const type = this.otherTypes.get(key);
    if (type !== undefined || !create) return type ?? -1;
    const created = this.newType();
    this.otherTypes.set(key, created);
    return created;
  }

  private newType(): number {
    const type = this.typeCount++;
    if (type >= this.seen.length) {
      const seen = new Int32Array(this.seen.length * 2);
      seen.set(this.seen);
      this.seen = seen;
      const dense = new Int32Array(this.dense.length * 2).fill(-1);
      dense.set(this.dense);
      this.dense = dense;
    }
    return type;
  }

  private tokenOf(type: number, k: number, create: boolean): number {
    if (k < DENSE_OCCURRENCES) {
      const slot = type * DENSE_OCCURRENCES + k;
      const token = this.dense[slot]!;
      if (token >= 0 || !create) return token;
      return (this.dense[slot] = this.size++);
    }
    const key = type * 2 ** 24 + k;
    const token = this.sparse.get(key);
    if (token !== undefined || !create) return token ?? -1;
    this.sparse.set(key, this.size);
    return this.size++;
  }

  /**
   * Writes the tokens of `key` (a similarity key) into `out` from `at` on and returns where they end;
   * with `create` false, tokens no stored text holds are left out. `out` must have room for
   * `key.length - 1` more.
   */
  /** Bigrams of the last text `tokenize` read: its key's length less one (0 for keys under 2). */
  bigrams = 0;
  /** Tokens of the last text `tokenize` read, from index 0 up to the count it returned. */
  tokens = new Int32Array(256);

  /**
   * Reads the tokens of `text`'s similarity key into `tokens` and returns how many there are; with
   * `create` false, tokens no stored text holds are left out. ASCII texts are lower-cased and stripped of whitespace on the fly (the
   * key itself is never built); others go through `similarityKey`, whose Unicode case mapping can
   * change lengths.
   */
  tokenize(text: string, create: boolean): number {
    if (this.tokens.length < text.length) this.tokens = new Int32Array(text.length);
    const end = this.tokenizeAscii(text, this.tokens, 0, create);
    if (end >= 0) return end;
    // Unicode lower-casing can lengthen a text (İ becomes i̇).
    const key = similarityKey(text);
    if (this.tokens.length < key.length) this.tokens = new Int32Array(key.length);
    return this.tokenizeCodes(key, this.tokens, 0, create);
  }

  /** −1 (and nothing recorded) when the text is not all ASCII. */
  private tokenizeAscii(text: string, out: Int32Array, at: number, create: boolean): number {
    let previous = -1;
    let chars = 0;
    let end = at;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 128) {
        this.forgetText();
        return -1;
      }
      // JavaScript's \s within ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
      if (c === 32 || (c >= 9 && c <= 13)) continue;
      if (c >= 65 && c <= 90) c += 32;
      chars++;
      if (previous >= 0) end = this.add(previous, c, out, end, create);
      previous = c;
    }
    this.forgetText();
    this.bigrams = Math.max(0, chars - 1);
    return end;
  }

  private tokenizeCodes(key: string, out: Int32Array, at: number, create: boolean): number {
    let end = at;
    for (let i = 0; i < key.length - 1; i++) {
      end = this.add(key.charCodeAt(i), key.charCodeAt(i + 1), out, end, create);
    }
    this.forgetText();
    this.bigrams = Math.max(0, key.length - 1);
    return end;
  }

  /** Records one bigram of the current text; returns the new end of `out`. */
  private add(a: number, b: number, out: Int32Array, end: number, create: boolean): number {
    let type = a < 128 && b < 128 ? this.asciiTypes[a * 128 + b]! : -1;
    if (type < 0) {
      type = this.typeOf(a, b, create);
      if (type < 0) return end;
    }
    const k = this.seen[type]!;
    if (k === 0) this.touched.push(type);
    this.seen[type] = k + 1;
    let token = k < DENSE_OCCURRENCES ? this.dense[type * DENSE_OCCURRENCES + k]! : -1;
    if (token < 0) {
      token = this.tokenOf(type, k, create);
      if (token < 0) return end;
    }
    out[end] = token;
    return end + 1;
  }

  /** Occurrence counts start again at 0 for the next text. */
  private forgetText(): void {
    const { seen, touched } = this;
    for (let i = 0; i < touched.length; i++) seen[touched[i]!] = 0;
    touched.length = 0;
  }
}

/** Where at least two of three bit-sliced words are set: the carries of adding them bit by bit. */
function carries(x: number, y: number, z: number): number {
  return (x & y) | ((x ^ y) & z);
}

/** Probes counted together in one pass over a group's words (their rows stay in the cache). */
const PROBES_PER_PASS = 64;

/** One probe of `searchMany`, ready for the counting passes. */
interface Probe {
  /** Bigrams of the probe. */
  n: number;
  /** The group's length range that can reach the threshold, [lo, hi) in length order. */
  lo: number;
  hi: number;
  /** Bitset rows of the probe's tokens, rarest first, padded to a multiple of 16 with the zero row. */
  rows: Int32Array;
  /** Posting-list tokens of the probe. */
  rareTokens: number[];
  /** Where the probe's counts from posting lists start in `rareCounts` (by text, in length order). */
  counts: number;
  /** The most `rare` holds for a text of each word from `lo >>> 5` on. */
  rareInWord: Int32Array;
  /** Where the probe's positions go. */
  found: number[];
}

export class BigramTextIndex {
  private readonly dictionary = new TokenDictionary();
  private readonly groups = new Map<string, Group>();
  /** Texts whose key is a single character: they have no bigrams and match only themselves. */
  private readonly singles = new Map<string, number[]>();
  // Scratch space reused by every search.
  /** Posting-list counts of a pass's probes, one group-sized run per probe. */
  private rareCounts = new Uint16Array(0);
  private readonly high = new Int32Array(HIGH_PLANES);
  private rows = new Int32Array(64);

  /**
   * @param texts the stored texts; search answers positions in this list.
   * @param groups a group per text (the PRITE part); a search looks in one group only.
   */
  constructor(texts: readonly string[], groups: readonly string[]) {
    const members = new Map<string, number[]>();
    texts.forEach((text, position) => {
      const group = groups[position] ?? "";
      let list = members.get(group);
      if (!list) members.set(group, (list = []));
      list.push(position);
    });
    for (const [group, positions] of members) {
      this.groups.set(group, this.buildGroup(texts, positions, group));
    }
  }

  private buildGroup(texts: readonly string[], positions: number[], group: string): Group {
    // Every text's tokens in one list; text i holds tokens[starts[i]] up to tokens[starts[i + 1]].
    let room = 0;
    for (const position of positions) room += texts[position]?.length ?? 0;
    let tokens = new Int32Array(room);
    const starts = new Int32Array(positions.length + 1);
    const lengths: number[] = new Array<number>(positions.length);
    const dictionary = this.dictionary;
    positions.forEach((position, i) => {
      const text = texts[position] ?? "";
      const count = dictionary.tokenize(text, true);
      const at = starts[i]!;
      if (at + count > tokens.length) {
        const grown = new Int32Array(Math.max(tokens.length * 2, at + count));
        grown.set(tokens);
        tokens = grown;
      }
      tokens.set(dictionary.tokens.subarray(0, count), at);
      starts[i + 1] = at + count;
      lengths[i] = dictionary.bigrams;
      if (lengths[i] === 0) {
        const key = similarityKey(text);
        if (key.length === 1) {
          const singleKey = `${group}\u0000${key}`;
          let list = this.singles.get(singleKey);
          if (!list) this.singles.set(singleKey, (list = []));
          list.push(position);
        }
      }
    });
    const order = positions.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
    const size = order.length;
    const words = (size + 31) >>> 5;
    const tokenCount = this.dictionary.size;

    const frequency = new Int32Array(tokenCount);
    for (let i = 0; i < tokens.length; i++) frequency[tokens[i]!]!++;
    const bitRow = new Int32Array(tokenCount).fill(-1);
    const postingStart = new Int32Array(tokenCount + 1);
    const bitTokens: number[] = [];
    for (let token = 0; token < tokenCount; token++) {
      const df = frequency[token]!;
      const asBits = df > 0 && df >= size * BITSET_SHARE;
      if (asBits) bitTokens.push(token);
      postingStart[token + 1] = postingStart[token]! + (asBits ? 0 : df);
    }
    // Rows numbered from the rarest token up, so a probe adds its rows rarest first by sorting them.
    bitTokens.sort((a, b) => frequency[a]! - frequency[b]! || a - b);
    bitTokens.forEach((token, row) => (bitRow[token] = row));
    const rowCount = bitTokens.length;
    const stride = rowCount + 1;
    const bits = new Int32Array(stride * words);
    const postings = new Int32Array(postingStart[tokenCount]!);
    const fill = postingStart.slice(0, tokenCount);
    order.forEach((text, doc) => {
      const word = doc >>> 5;
      const bit = 1 << (doc & 31);
      for (let i = starts[text]!, end = starts[text + 1]!; i < end; i++) {
        const token = tokens[i]!;
        const row = bitRow[token]!;
        if (row >= 0) bits[word * stride + row]! |= bit;
        else postings[fill[token]!++] = doc;
      }
    });
    return {
      positions: Int32Array.from(order, (i) => positions[i]!),
      lengths: Int32Array.from(order, (i) => lengths[i]!),
      words,
      bitRow,
      bits,
      stride,
      postingStart,
      postings,
    };
  }

  /**
   * Positions of the stored texts of `group` whose similarity with `text` is at least `minSimilarity`
   * (0 < minSimilarity ≤ 1), ascending. Exact: the same answer as comparing with every stored text.
   */
  search(text: string, group: string, minSimilarity: number): number[] {
    return this.searchMany([text], group, minSimilarity)[0]!;
  }

  /**
   * `search` for many probes of one group, answered in the probes' order. Probes of similar length
   * are counted together, word of 32 stored texts by word: the word's bitset rows are read from memory
   * once per batch of probes instead of once per probe. One probe at a time, the group's bitsets
   * (tens of MB at 50,000 texts) streamed through the cache for every probe and the search was bound
   * by memory, not by the adders (docs/decisions/410-batched-duplicate-search.md).
   */
  searchMany(texts: readonly string[], group: string, minSimilarity: number): number[][] {
    const results = texts.map((): number[] => []);
    const g = this.groups.get(group);
    const s = Math.min(1, minSimilarity) - SLACK;
    const pending: Probe[] = [];
    texts.forEach((text, k) => {
      const key = similarityKey(text);
      if (key.length === 1) {
        for (const position of this.singles.get(`${group}\u0000${key}`) ?? [])
          results[k]!.push(position);
        return;
      }
      if (!g || key.length < 2) return;
      const probe = this.tokenizeProbe(g, text, s, results[k]!);
      if (probe) pending.push(probe);
    });
    if (g) {
      // Shortest first, so a pass's probes share most of their length ranges.
      pending.sort((a, b) => a.n - b.n);
      const size = g.lengths.length;
      if (this.rareCounts.length < PROBES_PER_PASS * size) {
        this.rareCounts = new Uint16Array(PROBES_PER_PASS * size);
      }
      for (let start = 0; start < pending.length; start += PROBES_PER_PASS) {
        const batch = pending.slice(start, start + PROBES_PER_PASS);
        batch.forEach((probe, slot) => this.countPostings(g, probe, slot * size));
        this.countPass(g, batch, s);
      }
    }
    for (const found of results) found.sort((a, b) => a - b);
    return results;
  }

  /** A probe's length range and tokens (bitset rows, posting-list tokens); null when no length fits. */
  private tokenizeProbe(g: Group, text: string, s: number, found: number[]): Probe | null {
    const tokenCount = Math.min(MAX_PROBE_TOKENS, this.dictionary.tokenize(text, false));
    const tokens = this.dictionary.tokens;
    const n = this.dictionary.bigrams;
    // Dice ≥ s needs the shorter text to hold at least s/(2−s) of the longer one's bigrams.
    const ratio = s / (2 - s);
    const lo = lowerBound(g.lengths, 0, g.lengths.length, Math.floor(n * ratio));
    const hi = lowerBound(g.lengths, lo, g.lengths.length, Math.ceil(n / ratio) + 1);
    if (lo >= hi) return null;
    const { bitRow } = g;
    if (this.rows.length < tokenCount + 16) this.rows = new Int32Array(tokenCount + 16);
    const rows = this.rows;
    let rowCount = 0;
    const rare: number[] = [];
    for (let t = 0; t < tokenCount; t++) {
      const token = tokens[t]!;
      // Tokens first seen in a later group's texts do not occur in this one.
      if (token >= bitRow.length) continue;
      const row = bitRow[token]!;
      if (row >= 0) rows[rowCount++] = row;
      else rare.push(token);
    }
    // Rarest first: texts unlike the probe then fall behind early and their word is given up (below).
    rows.subarray(0, rowCount).sort();
    // Pad to whole groups of 16 with the all-zero row.
    const zeroRow = g.stride - 1;
    while (rowCount % 16 !== 0) rows[rowCount++] = zeroRow;
    return {
      n,
      lo,
      hi,
      rows: rows.slice(0, rowCount),
      rareTokens: rare,
      counts: 0,
      rareInWord: new Int32Array(((hi - 1) >>> 5) - (lo >>> 5) + 1),
      found,
    };
  }

  /** Adds the probe's posting-list tokens into its counters at `rareCounts[offset + text]`. */
  private countPostings(g: Group, probe: Probe, offset: number): void {
    const { lo, hi, rareTokens, rareInWord } = probe;
    const counts = this.rareCounts;
    counts.fill(0, offset + lo, offset + hi);
    const { postingStart, postings } = g;
    for (const token of rareTokens) {
      const end = postingStart[token + 1]!;
      for (let k = lowerBound(postings, postingStart[token]!, end, lo); k < end; k++) {
        const doc = postings[k]!;
        if (doc >= hi) break;
        counts[offset + doc]!++;
      }
    }
    // The most any text of a word gained from posting lists.
    const firstWord = lo >>> 5;
    for (let doc = lo; doc < hi; doc++) {
      const c = counts[offset + doc]!;
      const slot = (doc >>> 5) - firstWord;
      if (c > rareInWord[slot]!) rareInWord[slot] = c;
    }
    probe.counts = offset;
  }

  /** Counts a batch of probes against the words of 32 texts their length ranges cover. */
  private countPass(g: Group, batch: readonly Probe[], s: number): void {
    let fromWord = Infinity;
    let toWord = -1;
    for (const p of batch) {
      fromWord = Math.min(fromWord, p.lo >>> 5);
      toWord = Math.max(toWord, (p.hi - 1) >>> 5);
    }
    const high = this.high;
    const { bits, stride, lengths, positions } = g;
    const rareCounts = this.rareCounts;
    for (let w = fromWord; w <= toWord; w++) {
      const base = w * stride;
      for (const { n, lo, hi, rows, counts, rareInWord, found } of batch) {
        if (w < lo >>> 5 || w > (hi - 1) >>> 5) continue;
        const rowCount = rows.length;
        // Every text of the word is at least as long as its first one, and posting-list tokens add at
        // most `rareInWord` to any of them: one conservative target serves the whole word.
        const first = Math.max(lo, w << 5);
        const last = Math.min(hi, (w + 1) << 5);
        const rareMost = rareInWord[w - (lo >>> 5)]!;
        const target = Math.ceil((s * (n + lengths[first]!)) / 2) - rareMost;
        // Misses are counted, not matches: a text reaches the target only if it misses at most
        // `allowed` of the rows. Each text's counter starts at 2^top − (allowed + 1), so the texts that
        // missed too many are those whose bit `top` is set; the word is given up once it is set for all
        // 32, one comparison per 16 rows (a bit-sliced "count ≥ target" there cost 40% of the search).
        // Counters never pass 2^(top+1): they end at most at 2^top + target − 1.
        const allowed = rowCount - target;
        if (allowed < 0) continue;
        // The bit length of the larger of the two, at least 4 (2^top exceeds both).
        const top = Math.max(4, 32 - Math.clz32(Math.max(allowed, target)));
        const bias = 2 ** top - (allowed + 1);
        let ones = -(bias & 1);
        let twos = -((bias >>> 1) & 1);
        let fours = -((bias >>> 2) & 1);
        let eights = -((bias >>> 3) & 1);
        for (let p = 0; p < HIGH_PLANES; p++) high[p] = -((bias >>> (p + 4)) & 1);
        const topPlane = top - 4;
        let givenUp = false;
        for (let j = 0; j < rowCount; j += 16) {
          // Carry-save adders: 16 bitset words in, one word of 16s out. Unrolled on purpose: V8 does not
          // unroll loops, and the same adders as a loop over the rows four at a time made the search
          // 4-12% slower (docs/decisions/311).
          let a = ~bits[base + rows[j]!]!;
          let b = ~bits[base + rows[j + 1]!]!;
          let twosA = carries(ones, a, b);
          ones ^= a ^ b;
          a = ~bits[base + rows[j + 2]!]!;
          b = ~bits[base + rows[j + 3]!]!;
          let twosB = carries(ones, a, b);
          ones ^= a ^ b;
          let foursA = carries(twos, twosA, twosB);
          twos ^= twosA ^ twosB;
          a = ~bits[base + rows[j + 4]!]!;
          b = ~bits[base + rows[j + 5]!]!;
          twosA = carries(ones, a, b);
          ones ^= a ^ b;
          a = ~bits[base + rows[j + 6]!]!;
          b = ~bits[base + rows[j + 7]!]!;
          twosB = carries(ones, a, b);
          ones ^= a ^ b;
          let foursB = carries(twos, twosA, twosB);
          twos ^= twosA ^ twosB;
          const eightsA = carries(fours, foursA, foursB);
          fours ^= foursA ^ foursB;
          a = ~bits[base + rows[j + 8]!]!;
          b = ~bits[base + rows[j + 9]!]!;
          twosA = carries(ones, a, b);
          ones ^= a ^ b;
          a = ~bits[base + rows[j + 10]!]!;
          b = ~bits[base + rows[j + 11]!]!;
          twosB = carries(ones, a, b);
          ones ^= a ^ b;
          foursA = carries(twos, twosA, twosB);
          twos ^= twosA ^ twosB;
          a = ~bits[base + rows[j + 12]!]!;
          b = ~bits[base + rows[j + 13]!]!;
          twosA = carries(ones, a, b);
          ones ^= a ^ b;
          a = ~bits[base + rows[j + 14]!]!;
          b = ~bits[base + rows[j + 15]!]!;
          twosB = carries(ones, a, b);
          ones ^= a ^ b;
          foursB = carries(twos, twosA, twosB);
          twos ^= twosA ^ twosB;
          const eightsB = carries(fours, foursA, foursB);
          fours ^= foursA ^ foursB;
          let carry = carries(eights, eightsA, eightsB);
          eights ^= eightsA ^ eightsB;
          for (let p = 0; carry !== 0 && p < HIGH_PLANES; p++) {
            const plane = high[p]!;
            high[p] = plane ^ carry;
            carry = plane & carry;
          }
          if (high[topPlane] === -1) {
            givenUp = true;
            break;
          }
        }
        if (givenUp) continue;
        // Only the texts that missed few enough rows are counted exactly.
        const candidates = ~high[topPlane]!;
        for (let doc = first; doc < last; doc++) {
          const shift = doc & 31;
          if (((candidates >>> shift) & 1) === 0) continue;
          let sixteens = 0;
          for (let p = topPlane; p >= 0; p--)
            sixteens = (sixteens << 1) | ((high[p]! >>> shift) & 1);
          const counter =
            ((ones >>> shift) & 1) +
            (((twos >>> shift) & 1) << 1) +
            (((fours >>> shift) & 1) << 2) +
            (((eights >>> shift) & 1) << 3) +
            sixteens * 16;
          const c = rareCounts[counts + doc]! + rowCount - (counter - bias);
          if (2 * c >= s * (n + lengths[doc]!)) found.push(positions[doc]!);
        }
      }
    }
  }
}
