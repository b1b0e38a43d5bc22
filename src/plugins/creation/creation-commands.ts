import { inject, injectable } from 'inversify';
import { PAUSE_CHOICES, TOKENS, type Command, type CommandContribution, type Navigation, type ScriptEditorHandle, type ScriptEditorState } from '../../core';
import { CreationStateToken, type CreatePageHandle, type CreationState } from './creation-state';
import { PANES } from './panels/layout';

export const CREATE_ROUTE = '/create';
const SECTION = '脚本编辑';
const PAGE_SECTION = '开始创作';

/**
 * Palette commands of the script editor and of the /create page. The editor's show only while an editor has the
 * cursor (the palette keeps it: opening the palette does not take the cursor away) and act on that editor; the
 * page's (submit, choose an avatar or a voice, switch the drive, show a pane, reset the layout) while /create is the
 * active page.
 */
@injectable()
export class CreationCommands implements CommandContribution {
  constructor(
    @inject(CreationStateToken) private readonly state: CreationState,
    @inject(TOKENS.ScriptEditorState) private readonly editors: Pick<ScriptEditorState, 'activeEditor'>,
    @inject(TOKENS.Navigation) private readonly navigation: Pick<Navigation, 'current'>,
  ) {}

  /** The /create page, while it is the active page. */
  private get page(): CreatePageHandle | null {
    return this.navigation.current.path === CREATE_ROUTE ? this.state.createPage : null;
  }

  private pageCommand(id: string, title: string, icon: string, keywords: string, run: (p: CreatePageHandle) => void, enabled: (p: CreatePageHandle) => boolean = () => true): Command {
    return {
      id: `creation.create.${id}`,
      title: `开始创作：${title}`,
      section: PAGE_SECTION,
      icon,
      keywords,
      when: () => {
        const page = this.page;
        return page !== null && enabled(page);
      },
      run: () => {
        const page = this.page;
        if (page && enabled(page)) run(page);
      },
    };
  }

  private editorCommand(id: string, title: string, icon: string, keywords: string, enabled: (e: ScriptEditorHandle) => boolean, run: (e: ScriptEditorHandle) => void): Command {
    return {
      id,
      title,
      section: SECTION,
      icon,
      keywords,
      when: () => {
        const editor = this.editors.activeEditor;
        return editor !== null && enabled(editor);
      },
      run: () => {
        const editor = this.editors.activeEditor;
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
      // On /create the page's own 合成视频 stands for it.
      this.editorCommand('creation.editor.submit', '提交合成视频', 'send-message', 'submit create 提交 合成 视频', (e) => e.canSubmit && this.page === null, (e) => e.submit()),
      this.pageCommand('submit', '合成视频', 'video', 'submit create video 提交 合成 视频', (p) => p.submit()),
      this.pageCommand('avatar', '选择数字人', 'person', 'avatar choose pick 数字人 选择 形象', (p) => p.showPane('avatar')),
      this.pageCommand('voice', '选择声音', 'volume-up', 'voice choose pick 声音 选择 音色', (p) => p.showPane('voice')),
      this.pageCommand('audioDrive', '切换为音频驱动', 'music', 'drive audio switch 音频驱动 切换', (p) => {
        p.setMode('audio');
        p.showPane('script');
      }, (p) => p.mode === 'text'),
      this.pageCommand('textDrive', '切换为文本驱动', 'manual', 'drive text switch 文本驱动 切换', (p) => {
        p.setMode('text');
        p.showPane('script');
      }, (p) => p.mode === 'audio'),
      ...PANES.map(({ id, title }) => this.pageCommand(`pane.${id}`, `显示「${title}」窗格`, 'panel-table', `pane show open reopen 窗格 显示 打开 ${title}`, (p) => p.showPane(id))),
      this.pageCommand('resetLayout', '恢复默认布局', 'reset', 'reset layout panes 恢复 默认 布局 窗格', (p) => p.resetLayout()),
    ];
  }
}
