/** describeCron(cron): a plain-English reading of common 5-field cron expressions ("every day at 02:00"), or null when it is not one of them. */

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_ABBREVIATIONS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const isNumber = (field: string) => /^\d{1,2}$/.test(field);
const pad = (n: number) => String(n).padStart(2, '0');

function dayIndex(token: string): number | null {
  const lower = token.toLowerCase();
  const named = DAY_ABBREVIATIONS.indexOf(lower);
  if (named >= 0) return named;
  if (/^\d$/.test(lower)) {
    const n = Number(lower);
    return n <= 7 ? n % 7 : null;
  }
  return null;
}

/** "Monday", "Monday and Friday", "weekday (Monday to Friday)", "Monday to Wednesday"; null for anything else. */
function describeDays(field: string): string | null {
  const parts = field.split(',');
  const words: string[] = [];
  for (const part of parts) {
    const range = part.split('-');
    if (range.length === 2) {
      const from = dayIndex(range[0]!);
      const to = dayIndex(range[1]!);
      if (from === null || to === null) return null;
      if (from === 1 && to === 5 && parts.length === 1) return 'weekday (Monday to Friday)';
      words.push(`${DAY_NAMES[from]} to ${DAY_NAMES[to]}`);
    } else {
      const day = dayIndex(part);
      if (day === null) return null;
      words.push(DAY_NAMES[day]!);
    }
  }
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function ordinal(n: number): string {
  const suffix = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

export function describeCron(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  if (month !== '*') return null;
  const anyDay = dayOfMonth === '*' && dayOfWeek === '*';

  if (anyDay && hour === '*') {
    if (minute === '*') return 'every minute';
    const step = /^\*\/(\d+)$/.exec(minute);
    if (step) return Number(step[1]) === 1 ? 'every minute' : `every ${Number(step[1])} minutes`;
    if (isNumber(minute) && Number(minute) < 60) return Number(minute) === 0 ? 'every hour, on the hour' : `every hour at ${pad(Number(minute))} minutes past`;
    return null;
  }
  if (!isNumber(minute) || Number(minute) > 59) return null;
  const hourStep = /^\*\/(\d+)$/.exec(hour);
  if (anyDay && hourStep) return `every ${Number(hourStep[1])} hours at ${pad(Number(minute))} minutes past`;

  const hours = hour.split(',');
  if (!hours.every((h) => isNumber(h) && Number(h) < 24)) return null;
  const times = hours.map((h) => `${pad(Number(h))}:${pad(Number(minute))}`);
  const at = times.length === 1 ? times[0] : `${times.slice(0, -1).join(', ')} and ${times[times.length - 1]}`;

  if (anyDay) return `every day at ${at}`;
  if (dayOfMonth === '*') {
    const days = describeDays(dayOfWeek);
    return days ? `every ${days} at ${at}` : null;
  }
  if (dayOfWeek === '*' && isNumber(dayOfMonth) && Number(dayOfMonth) >= 1 && Number(dayOfMonth) <= 31) {
    return `on the ${ordinal(Number(dayOfMonth))} of every month at ${at}`;
  }
  return null;
}

/** What is wrong with the expression's shape before the service reads it (five fields of cron characters), or null. */
export function cronShapeProblem(cron: string): string | null {
  const text = cron.trim();
  if (!text) return 'Enter a cron expression, e.g. "0 2 * * *" for every day at 02:00.';
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return `A cron expression has five fields (minute hour day-of-month month day-of-week); this one has ${fields.length}.`;
  const bad = fields.find((field) => !/^[\w*/,-]+$/.test(field));
  return bad ? `"${bad}" is not a cron field: use values, ranges (9-17), steps (*/15), lists (1,15) or names (mon-fri).` : null;
}
