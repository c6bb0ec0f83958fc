/** Calendar days in the user's time zone. Pure: the instant and the zone are arguments. */
import { LRUCache } from "lru-cache";

/**
 * Caches keyed by what a client sends must not grow with it (issue 24): a zone's spellings (any letter
 * case of a name, from the x-time-zone header) map to the runtime's canonical name in a bounded cache,
 * and the formatters and offsets are kept per canonical zone, also bounded. docs/decisions/161 lists
 * every module-level cache and who controls its keys.
 */
const canonicalBySpelling = new LRUCache<string, string>({ max: 1_000 });
const INVALID_ZONE = "";

interface ZoneCache {
  day: Intl.DateTimeFormat;
  offset: Intl.DateTimeFormat;
  /** The offset (ms) of each quarter hour seen, or null when it holds a transition. */
  quarters: Map<number, number | null>;
}
/** Per canonical zone; a server sees few zones, and a zone's quarter-hour table is capped below. */
const zones = new LRUCache<string, ZoneCache>({ max: 32 });

/**
 * The runtime's own name for a time zone (`america/new_york` → `America/New_York`), or null when the
 * runtime does not know it.
 */
export function canonicalTimeZone(timeZone: string | null | undefined): string | null {
  if (typeof timeZone !== "string" || timeZone === "" || timeZone.length > 64) return null;
  let canonical = canonicalBySpelling.get(timeZone);
  if (canonical === undefined) {
    try {
      canonical = new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
    } catch {
      canonical = INVALID_ZONE;
    }
    canonicalBySpelling.set(timeZone, canonical);
  }
  return canonical === INVALID_ZONE ? null : canonical;
}

function zoneCache(zone: string): ZoneCache | null {
  const cached = zones.get(zone);
  if (cached) return cached;
  try {
    const entry: ZoneCache = {
      day: new Intl.DateTimeFormat("en-CA", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }),
      offset: new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      }),
      quarters: new Map(),
    };
    zones.set(zone, entry);
    return entry;
  } catch {
    return null;
  }
}

/** How many entries the time-zone caches hold now (tests and the memory bench watch the bounds). */
export function timeZoneCacheSizes(): { spellings: number; zones: number } {
  return { spellings: canonicalBySpelling.size, zones: zones.size };
}

export function isValidTimeZone(timeZone: string | null | undefined): boolean {
  return canonicalTimeZone(timeZone) !== null;
}

/** The canonical IANA zone, or 'UTC' when it is missing or unknown to this runtime. */
export function resolveTimeZone(timeZone: string | null | undefined): string {
  return canonicalTimeZone(timeZone) ?? "UTC";
}

/** 'YYYY-MM-DD' of the calendar day `date` falls on in `timeZone` (an invalid zone reads as UTC). */
export function localDayKey(date: Date, timeZone: string): string {
  const zone = resolveTimeZone(timeZone);
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return exactDayKey(date, zone);
  // A zone's offset changes only at transitions, all on quarter hours: the offset found at both ends
  // of this quarter hour holds for all of it, and the day is then plain arithmetic. Intl, which costs
  // microseconds a call, runs twice per quarter hour instead of once per answer (the dashboard reads
  // thousands).
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  const offset = quarterOffset(zone, quarter);
  if (offset === null) return exactDayKey(date, zone);
  return new Date(ms + offset).toISOString().slice(0, 10);
}

function exactDayKey(date: Date, zone: string): string {
  const formatter = (zoneCache(zone) ?? zoneCache("UTC"))!.day;
  const parts = formatter.formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

export const QUARTER_HOUR_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const QUARTERS_KEPT = 20_000;

/**
 * The day number (days since the epoch, in `zone`) of the quarter hour starting at `quarterStartMs`, or
 * null when its instants do not all fall on one day (an offset that is not a whole number of quarter
 * hours, or a change of offset inside the quarter). `zone` is canonical (`resolveTimeZone`).
 */
export function quarterDayNumber(zone: string, quarterStartMs: number): number | null {
  const offset = quarterOffset(zone, quarterStartMs / QUARTER_HOUR_MS);
  if (offset === null) return null;
  const dayNumber = Math.floor((quarterStartMs + offset) / DAY_MS);
  if (Math.floor((quarterStartMs + QUARTER_HOUR_MS - 1 + offset) / DAY_MS) !== dayNumber)
    return null;
  return dayNumber;
}

/** 'YYYY-MM-DD' of a day number from `quarterDayNumber`. */
export function dayNumberKey(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

function quarterOffset(zone: string, quarter: number): number | null {
  const entry = zoneCache(zone);
  if (!entry) return null;
  const offsets = entry.quarters;
  const cached = offsets.get(quarter);
  if (cached !== undefined) return cached;
  const start = quarter * QUARTER_HOUR_MS;
  const a = offsetAt(entry.offset, start);
  const b = offsetAt(entry.offset, start + QUARTER_HOUR_MS - 1000);
  const offset = a !== null && a === b ? a : null;
  if (offsets.size >= QUARTERS_KEPT) offsets.clear();
  offsets.set(quarter, offset);
  return offset;
}

/** Local wall time minus UTC at `ms` (whole seconds), or null if the zone cannot be read. */
function offsetAt(formatter: Intl.DateTimeFormat, ms: number): number | null {
  const fields: Record<string, number> = {};
  for (const part of formatter.formatToParts(ms)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  const { year, month, day, hour, minute, second } = fields;
  if (
    [year, month, day, hour, minute, second].some((v) => v === undefined || !Number.isFinite(v))
  ) {
    return null;
  }
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * Calendar arithmetic on day keys. Done in UTC on purpose: a day key is already local, and UTC has no
 * daylight-saving jumps, so 23- and 25-hour days cannot skip or repeat a date.
 */
export function shiftDayKey(dayKey: string, days: number): string {
  const [y, m, d] = dayKey.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

/**
 * Consecutive study days ending today, or ending yesterday when nothing has been studied yet today:
 * the streak is still alive until the day is over (docs/product/states.md Streak).
 */
export function computeStreak(dayKeys: Iterable<string>, todayKey: string): number {
  const days = dayKeys instanceof Set ? (dayKeys as Set<string>) : new Set(dayKeys);
  let day = days.has(todayKey) ? todayKey : shiftDayKey(todayKey, -1);
  let streak = 0;
  while (days.has(day)) {
    streak++;
    day = shiftDayKey(day, -1);
  }
  return streak;
}
