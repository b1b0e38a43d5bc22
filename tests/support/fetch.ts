/**
 * A GET whose body the test does not want (it checks the status or a header): the body is dropped at once, so the
 * response does not stay stuck mid-stream, holding its connection and the test app's close.
 */
export async function fetchHead(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  await res.body?.cancel();
  return res;
}
