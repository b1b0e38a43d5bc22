import { Button, NonIdealState, Tag } from '@blueprintjs/core';
import { useValue } from '../../../core';
import type { ImageGenScreen } from '../imagegen-state';
import { shownSlide } from '../imagegen-view';

/** The carousel of the record previewed: turns by itself while it has more than one picture and the pointer is not on it. */
export function Preview({ screen }: { screen: ImageGenScreen }) {
  const record = useValue(screen.previewed$);
  const index = useValue(screen.slide$);
  const saving = useValue(screen.saving$);
  const count = record?.url.length ?? 0;
  const shown = shownSlide(index, count);

  if (!record || count === 0) {
    return (
      <section className="tool-card ig-preview ig-preview-empty" data-testid="imagegen-preview">
        <NonIdealState icon="media" title="生成的图片会显示在这里" description="选择比例和数量，点击立即生成。" />
      </section>
    );
  }
  const url = record.url[shown]!;
  return (
    <section className="tool-card ig-preview" data-testid="imagegen-preview" data-record={record.id}>
      <div className="ig-stage" onMouseEnter={() => screen.paused$.next(true)} onMouseLeave={() => screen.paused$.next(false)}>
        <img className="ig-stage-bg" src={url} alt="" aria-hidden draggable={false} />
        <img className="ig-stage-img" src={url} alt={`${record.text}（第 ${shown + 1} 张）`} draggable={false} data-testid="imagegen-slide" data-index={shown} />
        {count > 1 && (
          <>
            <Button className="ig-nav prev" icon="chevron-left" aria-label="上一张" onClick={() => screen.showSlide((shown - 1 + count) % count)} />
            <Button className="ig-nav next" icon="chevron-right" aria-label="下一张" onClick={() => screen.showSlide((shown + 1) % count)} />
            <div className="ig-dots">
              {record.url.map((u, i) => (
                <button key={u} type="button" className={`ig-dot${i === shown ? ' active' : ''}`} aria-label={`第 ${i + 1} 张`} onClick={() => screen.showSlide(i)} data-testid="imagegen-dot" />
              ))}
            </div>
          </>
        )}
      </div>
      <div className="ig-preview-bar">
        <div className="ig-preview-text" title={record.text}>
          <Tag minimal round>
            {shown + 1}/{count}
          </Tag>
          <span>{record.text}</span>
        </div>
        <div className="ig-preview-actions">
          <Button icon="download" text="下载" onClick={() => void screen.download(record, [shown])} data-testid="imagegen-download" />
          <Button icon="floppy-disk" text="保存到素材库" loading={saving} onClick={() => void screen.saveToMaterial(record, shown)} data-testid="imagegen-save" />
        </div>
      </div>
      {record.reason && <p className="ig-note">{record.reason}</p>}
    </section>
  );
}
