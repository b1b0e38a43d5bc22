/** Times shown to users are China Standard Time (UTC+8), `YYYY-MM-DD HH:mm:ss`, as the product is Chinese. */
const CST_OFFSET_MS = 8 * 3600 * 1000;

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return '';
  const d = new Date(new Date(value).getTime() + CST_OFFSET_MS);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** SQL for the start of today in China Standard Time, the day of the daily free counts. */
export const SQL_TODAY_CST = `date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai'`;
