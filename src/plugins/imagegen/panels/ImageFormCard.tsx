import { Button, ButtonGroup, FormGroup, Icon } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { CountedField, UploadBox, useStore, useValue } from '../../../core';
import type { ImageGenScreen } from '../imagegen-state';
import { COUNTS, cost, ratioShape } from '../imagegen-view';

/** 生成设置: the description with its suggestions, the ratio, the reference picture, the count and 立即生成. */
export function ImageFormCard({ screen, configured }: { screen: ImageGenScreen; configured: boolean }) {
  const form = useValue(screen.form$);
  const suggestions = useValue(screen.suggestions$);
  const prompts = useStore(screen.prompts);
  const uploading = useValue(screen.uploading$);
  const submitting = useValue(screen.submitting$);
  const patch = screen.patch.bind(screen);
  return (
    <section className="tool-card tool-form ig-form" aria-label="生成设置">
      <CountedField label="描述词" className="tool-group" id="ig-text" testId="imagegen-text" rows={4} maxLength={LIMITS.promptMaxChars}
        value={form.text} onChange={(text) => patch({ text })} placeholder="描述你想要的画面：主体、场景、风格、光线……" />
      <div className="ig-suggest" data-testid="imagegen-suggestions">
        <div className="ig-suggest-head">
          <span>
            <Icon icon="lightbulb" size={12} /> 试试这些
          </span>
          <Button variant="minimal" size="small" icon="refresh" text="换一换" onClick={() => screen.shuffle()} disabled={(prompts.value?.length ?? 0) <= LIMITS.recommendCount} data-testid="imagegen-suggest-refresh" />
        </div>
        {suggestions.map((p) => (
          <button key={p.id} type="button" className="ig-suggestion" title={p.content} onClick={() => patch({ text: p.content })} data-testid="imagegen-suggestion">
            {p.content}
          </button>
        ))}
      </div>

      <FormGroup label="图片比例" className="tool-group">
        <div className="ig-ratios" role="radiogroup" aria-label="图片比例">
          {LIMITS.imageRatios.map((ratio) => (
            <button
              key={ratio}
              type="button"
              role="radio"
              aria-checked={form.ratio === ratio}
              className={`ig-ratio${form.ratio === ratio ? ' active' : ''}`}
              onClick={() => patch({ ratio })}
              data-testid={`imagegen-ratio-${ratio}`}
            >
              <span className="ig-ratio-shape" style={ratioShape(ratio)} />
              {ratio}
            </button>
          ))}
        </div>
      </FormGroup>

      <FormGroup label="参考图（可选）" className="tool-group">
        {form.image ? (
          <div className="ig-reference" data-testid="imagegen-reference-chosen">
            <img src={form.image} alt="参考图" />
            <Button className="ig-reference-remove" size="small" icon="cross" aria-label="移除参考图" title="移除参考图" onClick={() => patch({ image: '' })} data-testid="imagegen-reference-remove" />
          </div>
        ) : (
          <UploadBox
            type="image"
            accept=".png,.jpg,.jpeg"
            compact
            check={(file) => (file.size > LIMITS.image.maxBytes ? MSG.imageTooLarge : null)}
            title="上传参考图"
            hint={`PNG、JPG，不超过 10MB，短边不小于 ${LIMITS.image.minSide} 像素`}
            onUploaded={(file) => patch({ image: file.url })}
            onBusyChange={(busy) => screen.uploading$.next(busy)}
            data-testid="imagegen-reference"
          />
        )}
      </FormGroup>

      <FormGroup label="生成数量" className="tool-group">
        <ButtonGroup fill>
          {COUNTS.map((n) => (
            <Button key={n} text={`${n} 张`} active={form.num === n} intent={form.num === n ? 'primary' : 'none'} variant={form.num === n ? 'solid' : 'outlined'} onClick={() => patch({ num: n })} data-testid={`imagegen-count-${n}`} />
          ))}
        </ButtonGroup>
      </FormGroup>

      <Button
        className="ig-generate"
        intent="primary"
        size="large"
        icon="clean"
        fill
        text={`立即生成 · ${cost(form.num)} 积分`}
        disabled={!configured || uploading}
        loading={submitting}
        onClick={() => screen.ask()}
        data-testid="imagegen-generate"
      />
    </section>
  );
}
