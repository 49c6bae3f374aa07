/**
 * Assertions on a pending response that show the whole body when the status is not the one expected,
 * so a failing test says what the service answered.
 */

/** The body of a response with `status` (`null` for 204). */
export async function ok(res: Promise<Response>, status: number): Promise<any> {
  const r = await res;
  const body = r.status === 204 ? null : await r.json();
  expect({ status: r.status, body }).toMatchObject({ status });
  return body;
}

/** The `error` of a response with `status` and error `code`. */
export async function error(res: Promise<Response>, status: number, code: string): Promise<any> {
  const r = await res;
  const body = await r.json();
  expect({ status: r.status, code: body.error?.code, body }).toMatchObject({ status, code });
  return body.error;
}
