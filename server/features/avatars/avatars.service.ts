/** Starting a clone, shared by the user's clone call and the operator's avatar publish. */
import type { Queryable } from '../../infra/db';
import type { JobQueue } from '../../infra/queue';
import { AvatarsRepository } from './avatars.repository';

/** Inside the caller's transaction: the cloning avatar and its job, which runs only if the transaction commits. */
export async function startClone(q: Queryable, queue: JobQueue, clone: { userId: number | null; name: string; sourceFileId: number }): Promise<number> {
  const avatarId = await new AvatarsRepository(q).addCloning(clone.userId, clone.name, clone.sourceFileId);
  await queue.send('avatar-clone', { avatarId }, {}, q);
  return avatarId;
}
