/** What the AI music screen shows that is not state: the suggestion chips, the form and its first problem, labels. */
import { LIMITS, MSG, MusicStatus, type MusicTask } from '../../contract';

export const MUSIC_ROUTE = '/store/music/index';

/** Suggestion chips by what they describe; a click adds the word to the description. */
export const MUSIC_CHIPS: readonly { group: string; words: readonly string[] }[] = [
  { group: '风格', words: ['流行', '民谣', '电子', '古风', '爵士', '摇滚', '轻音乐'] },
  { group: '情绪', words: ['欢快', '温暖', '治愈', '激昂', '忧伤', '浪漫'] },
  { group: '乐器', words: ['钢琴', '吉他', '弦乐', '古筝', '鼓点', '合成器'] },
  { group: '节奏', words: ['慢板', '中速', '快节奏'] },
];

export interface MusicForm {
  title: string;
  prompt: string;
  /** 1 纯音乐, 0 带人声 */
  instrumental: 0 | 1;
  lyrics: string;
}

export const EMPTY_MUSIC_FORM: MusicForm = { title: '', prompt: '', instrumental: 1, lyrics: '' };

/** Adds a chip's word to the description (once), joined with the description's own comma. */
export function addChip(prompt: string, word: string): string {
  const text = prompt.trim();
  if (text.split(/[，,、\s]+/).includes(word)) return prompt;
  if (!text) return word;
  return `${text.replace(/[，,、\s]+$/, '')}，${word}`;
}

/** The lyrics' section tags, offered as buttons that insert one. */
export const SECTION_TAGS = ['[Intro]', '[Verse]', '[Pre Chorus]', '[Chorus]', '[Bridge]', '[Outro]'] as const;

/** The first thing to fix before asking to generate, or null. */
export function formProblem(form: MusicForm): string | null {
  if (!form.prompt.trim()) return MSG.musicPromptRequired;
  if (!form.title.trim()) return MSG.musicTitleRequired;
  if (form.instrumental === 0 && form.lyrics.trim()) {
    const sung = [...form.lyrics.replace(/\[[^\]]*\]/g, '').replace(/\s/g, '')].length;
    if (sung < LIMITS.music.lyricsMinChars) return MSG.musicLyricsTooShort(LIMITS.music.lyricsMinChars);
  }
  return null;
}

export const STATUS_LABEL: Record<number, { text: string; intent: 'none' | 'primary' | 'success' | 'danger' }> = {
  [MusicStatus.Queued]: { text: '排队中', intent: 'none' },
  [MusicStatus.Running]: { text: '生成中', intent: 'primary' },
  [MusicStatus.Done]: { text: '已完成', intent: 'success' },
  [MusicStatus.Failed]: { text: '失败', intent: 'danger' },
};

export const isBusy = (t: Pick<MusicTask, 'status'>) => t.status === MusicStatus.Queued || t.status === MusicStatus.Running;
export const isDone = (t: Pick<MusicTask, 'status'>) => t.status === MusicStatus.Done;
export const trackKey = (id: string | number) => `music:${id}`;
