import { Button, ButtonGroup, Callout, FormGroup, Slider, TextArea, Tooltip } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { useValue } from '../../../core';
import type { VideoGenScreen } from '../videogen-state';
import { imaginationWarns } from '../videogen-view';

/** Mode (高品质 only while open), duration, ratio, imagination with its warning, and the negative prompt. */
export function Parameters({ screen, proOpen }: { screen: VideoGenScreen; proOpen: boolean }) {
  const form = useValue(screen.form$);
  const patch = screen.patch.bind(screen);
  return (
    <div className="vg-card vg-params">
      <FormGroup label="模式" inline className="vg-param">
        <ButtonGroup>
          <Button text="标准" active={form.mode === 'std'} intent={form.mode === 'std' ? 'primary' : 'none'} onClick={() => screen.chooseMode('std')} data-testid="videogen-mode-std" />
          <Tooltip content={proOpen ? '画质更高，积分更多' : MSG.highQualityMaintenance} placement="top">
            <Button
              text="高品质"
              active={form.mode === 'pro'}
              intent={form.mode === 'pro' ? 'primary' : 'none'}
              className={proOpen ? '' : 'vg-closed'}
              onClick={() => screen.chooseMode('pro')}
              data-testid="videogen-mode-pro"
            />
          </Tooltip>
        </ButtonGroup>
        {!proOpen && <span className="vg-maintenance">{MSG.highQualityMaintenance}</span>}
      </FormGroup>
      <FormGroup label="时长" inline className="vg-param">
        <ButtonGroup>
          {LIMITS.videoDurations.map((d) => (
            <Button key={d} text={`${d}秒`} active={form.duration === d} intent={form.duration === d ? 'primary' : 'none'} onClick={() => patch({ duration: d })} data-testid={`videogen-duration-${d}`} />
          ))}
        </ButtonGroup>
      </FormGroup>
      <FormGroup label="比例" inline className="vg-param">
        <ButtonGroup>
          {LIMITS.videoRatios.map((r) => (
            <Button key={r} active={form.ratio === r} intent={form.ratio === r ? 'primary' : 'none'} onClick={() => patch({ ratio: r })} data-testid={`videogen-ratio-${r.replace(':', 'x')}`}>
              <span className={`vg-ratio-icon r${r.replace(':', 'x')}`} />
              {r}
            </Button>
          ))}
        </ButtonGroup>
      </FormGroup>
      <FormGroup label="想象力" className="vg-param vg-slider">
        <Slider
          min={LIMITS.imagination.min}
          max={LIMITS.imagination.max}
          stepSize={LIMITS.imagination.step}
          labelStepSize={0.25}
          value={form.cfgScale}
          onChange={(v) => patch({ cfgScale: Math.round(v * 100) / 100 })}
          labelRenderer={(v) => v.toFixed(2).replace(/0$/, '')}
        />
        <div className="vg-slider-ends">
          <span>更贴近描述</span>
          <span>更有想象力</span>
        </div>
        {imaginationWarns(form.cfgScale) && (
          <Callout intent="warning" compact className="vg-warn" data-testid="videogen-imagination-warning">
            想象力较高时，画面可能偏离图片或描述词，出现图文不一致。
          </Callout>
        )}
      </FormGroup>
      <FormGroup label="反向描述词" className="vg-param">
        <TextArea fill rows={2} value={form.negative} maxLength={LIMITS.promptMaxChars} onChange={(e) => patch({ negative: e.target.value })} placeholder="不希望出现的内容，例如：模糊、变形、文字" data-testid="videogen-negative" />
      </FormGroup>
    </div>
  );
}
