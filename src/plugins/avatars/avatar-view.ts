/** Pure helpers of the avatars plugin: status, orientation, the clone video check, the clone button's throttle. */
import { AvatarStatus, LIMITS, MSG, type Avatar } from '../../contract';
import { cloneFormCheck, sampleWords, type CloneOutcome } from '../../core';
export type AvatarPhase = 'cloning' | 'ready' | 'failed';

export function avatarPhase(avatar: Pick<Avatar, 'status'>): AvatarPhase {
  if (avatar.status === AvatarStatus.Cloning) return 'cloning';
  if (avatar.status === AvatarStatus.Failed) return 'failed';
  return 'ready';
}

export const PHASE_LABEL: Record<AvatarPhase, string> = { cloning: '克隆中', ready: '可使用', failed: '克隆失败' };

/** The server may say why a clone failed (`reason`, not yet in the contract's Avatar). */
export function failureReason(avatar: Avatar): string {
  const reason = (avatar as Avatar & { reason?: unknown }).reason;
  return typeof reason === 'string' && reason.trim() ? reason.trim() : '视频处理失败，请删除后重新克隆';
}

/** The spec's hs value for /create: 1 landscape, 2 portrait (the default). */
export function orientationOf(avatar: Pick<Avatar, 'orientation'>): 1 | 2 {
  return avatar.orientation === 1 ? 1 : 2;
}

/** Query of 高级创作 (part 1 §2: /create?id=&hs=). */
export function createQuery(avatar: Pick<Avatar, 'id' | 'orientation'>): { id: number; hs: 1 | 2 } {
  return { id: avatar.id, hs: orientationOf(avatar) };
}

/** An avatar's clone as useCloneOutcomes reads it. */
export const cloneOutcome = (a: Pick<Avatar, 'status'>): CloneOutcome => {
  const phase = avatarPhase(a);
  return phase === 'cloning' ? 'pending' : phase;
};
export const AVATAR_CLONE_WORDS = { ready: MSG.avatarCloneReady, failed: MSG.avatarCloneFailed };

/** Whether the list must keep polling: some avatar is still cloning. */
export function anyCloning(list: readonly Pick<Avatar, 'status'>[]): boolean {
  return list.some((a) => avatarPhase(a) === 'cloning');
}

/** The clone dialog's file check (part 1 §5): MP4 or MOV, at most 500 MB; else MSG.avatarVideoInvalid. */
export function checkCloneVideo(file: { name: string; size: number }): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const formats: readonly string[] = LIMITS.video.formats;
  if (!formats.includes(ext) || file.size <= 0 || file.size > LIMITS.video.maxBytes) return MSG.avatarVideoInvalid;
  return null;
}

/** The clone video's limits in words. */
export const VIDEO_SAMPLE = sampleWords(LIMITS.video);

/** The accept list of the clone upload. */
export const CLONE_ACCEPT = '.mp4,.mov,video/mp4,video/quicktime';

/** What the clone form lacks, in the spec's order (name, then video), or null. */
export const cloneFormProblem = cloneFormCheck(MSG.avatarNameRequired, MSG.avatarVideoRequired);

