import { inject, injectable } from 'inversify';
import type { Command, CommandContribution } from '../../core';
import { PAUSE_CHOICES } from './editor/markers';
import { CreationStateToken, type CreationState, type ScriptEditorHandle } from './creation-state';

export const CREATE_ROUTE = '/create';
const SECTION = '脚本编辑';

/**
 * Palette commands of the script editor. They show only while an editor has the cursor (the palette keeps it:
 * opening the palette does not take the cursor away) and act on that editor.
 */
@injectable()
export class CreationCommands implements CommandContribution {
  constructor(@inject(CreationStateToken) private readonly state: CreationState) {}

  private editorCommand(id: string, title: string, icon: string, keywords: string, enabled: (e: ScriptEditorHandle) => boolean, run: (e: ScriptEditorHandle) => void): Command {
    return {
      id,
      title,
      section: SECTION,
      icon,
      keywords,
      when: () => {
        const editor = this.state.activeEditor;
        return editor !== null && enabled(editor);
      },
      run: () => {
        const editor = this.state.activeEditor;
        if (editor && enabled(editor)) run(editor);
      },
    };
  }

  commands(): Command[] {
    return [
      ...PAUSE_CHOICES.map(({ seconds }) =>
        this.editorCommand(
          `creation.editor.pause.${String(seconds).replace('.', '_')}`,
          `插入停顿 ${seconds}秒`,
          'stopwatch',
          `pause insert 停顿 插入 ${seconds} 秒`,
          (e) => e.pausesAllowed,
          (e) => e.insertPause(seconds),
        ),
      ),
      this.editorCommand('creation.editor.polish', '文本润色', 'clean', 'polish 润色 文本', (e) => e.aiAvailable, (e) => e.polish(false)),
      this.editorCommand('creation.editor.emotion', '添加情绪标记', 'emoji', 'emotion 情绪 标记 润色', (e) => e.aiAvailable, (e) => e.polish(true)),
      this.editorCommand('creation.editor.aiWriting', 'AI 写作', 'lightbulb', 'ai writing 写作 文案 生成', (e) => e.aiAvailable, (e) => e.openAiWriting()),
      this.editorCommand('creation.editor.audition', '试听台词', 'volume-up', 'audition listen 试听 播放', (e) => e.canAudition, (e) => e.audition()),
      this.editorCommand('creation.editor.submit', '提交合成视频', 'send-message', 'submit create 提交 合成 视频', (e) => e.canSubmit, (e) => e.submit()),
    ];
  }
}
