import { Button, Dialog, DialogBody, InputGroup, Spinner, TextArea } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { ConfirmDelete, useDeletionFlow, useStore, useValue } from '../../../core';
import type { VideoGenScreen } from '../videogen-state';

/** 我的预设: search, use, delete, and save the prompt (or what is typed here) as a new one. */
export function Presets({ screen }: { screen: VideoGenScreen }) {
  const presets = screen.presets;
  const isOpen = useValue(presets.open$);
  const keyword = useValue(presets.keyword$);
  const search = useValue(presets.search$);
  const list = useStore(presets.list);
  const title = useValue(presets.title$);
  const content = useValue(presets.content$);
  const saving = useValue(presets.saving$);
  const deletion = useDeletionFlow(presets.deletion);
  const items = list.value ?? [];
  return (
    <Dialog isOpen={isOpen} onClose={() => screen.closePresets()} title="我的预设" icon="bookmark" className="vg-dialog">
      <DialogBody>
        <InputGroup leftIcon="search" placeholder="搜索预设名称或内容" value={keyword} onValueChange={(v) => presets.keyword$.next(v)} data-testid="videogen-preset-search" />
        <div className="vg-preset-list" data-testid="videogen-preset-list">
          {!list.loaded ? (
            <Spinner size={20} />
          ) : items.length === 0 ? (
            <span className="vg-muted">{search ? '没有匹配的预设' : '还没有预设，在下方保存一个吧'}</span>
          ) : (
            items.map((p) => (
              <div key={p.id} className="vg-preset" data-testid="videogen-preset">
                <div className="vg-preset-text">
                  <strong>{p.title}</strong>
                  <span>{p.content}</span>
                </div>
                <Button size="small" intent="primary" text="使用" onClick={() => screen.usePreset(p.content)} data-testid="videogen-preset-use" />
                <Button size="small" variant="minimal" icon="trash" aria-label="删除" onClick={() => deletion.ask(p)} data-testid="videogen-preset-delete" />
              </div>
            ))
          )}
        </div>
        <div className="vg-preset-save">
          <span className="vg-label vg-label-small">保存为预设</span>
          <InputGroup placeholder="预设名称（可不填，默认取内容开头）" value={title} maxLength={LIMITS.nameMaxChars} onValueChange={(v) => presets.title$.next(v)} data-testid="videogen-preset-title" />
          <TextArea fill rows={3} placeholder="预设内容" value={content} onChange={(e) => presets.content$.next(e.target.value)} data-testid="videogen-preset-content" />
          <Button intent="primary" icon="floppy-disk" text="保存预设" loading={saving} onClick={() => void presets.save()} data-testid="videogen-preset-save" />
        </div>
      </DialogBody>
      <ConfirmDelete deletion={deletion} title={`删除预设「${deletion.target?.title ?? ''}」？`} text="删除后不可恢复。" classPrefix="vg" />
    </Dialog>
  );
}
