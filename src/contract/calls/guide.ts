/** Tutorial guides (part 1 §2 tutorial, §3). */
import { z } from 'zod';
import { defineGroup } from '../call';
import { userList } from './fields';

export const GuideItem = z.object({ name: z.string(), cover: z.string(), video_url: z.string() });
export type GuideItem = z.infer<typeof GuideItem>;

export const GuideCategory = z.object({ name: z.string(), items: z.array(GuideItem) });
export type GuideCategory = z.infer<typeof GuideCategory>;

export const guideCalls = defineGroup('guide', {
  list: userList({ path: '/api/guide', pathFromSpec: false, summary: 'Tutorial categories, each with guide videos (name, cover, video_url) (spec name: guide).' }, GuideCategory),
});
