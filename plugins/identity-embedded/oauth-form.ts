/** Reads an OAuth form body (application/x-www-form-urlencoded, as RFC 6749 requires) into single string values. */

export type OAuthForm = { ok: true; values: Record<string, string> } | { ok: false; description: string };

/** Routes that call this opt out of Elysia's body parser (`parse: 'none'`), so the body is still unread here. */
export async function readOAuthForm(request: Request): Promise<OAuthForm> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const entries: [string, FormDataEntryValue][] = [];
  const collect = (value: FormDataEntryValue, name: string) => entries.push([name, value]);
  try {
    if (type === 'application/x-www-form-urlencoded') new URLSearchParams(await request.text()).forEach(collect);
    else if (type === 'multipart/form-data') (await request.formData()).forEach(collect);
    else return { ok: false, description: 'Content-Type must be application/x-www-form-urlencoded' };
  } catch {
    return { ok: false, description: 'Malformed form body' };
  }
  const values: Record<string, string> = {};
  for (const [name, value] of entries) {
    // RFC 6749 3.1: request parameters must not be included more than once.
    if (Object.hasOwn(values, name)) return { ok: false, description: `duplicated parameter: ${name}` };
    if (typeof value === 'string') values[name] = value;
  }
  return { ok: true, values };
}
