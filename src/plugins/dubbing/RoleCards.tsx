/**
 * The roles of a project: in single mode the one voice that reads the text, in a dialogue up to five named roles.
 * Each shows its voice (change it in the voice picker), its speed, volume and pitch, and on MiniMax an emotion.
 */
import { memo } from 'react';
import { Button, Icon, InputGroup, Popover, Slider, Tag, Tooltip } from '@blueprintjs/core';
import { LIMITS } from '../../contract';
import { HTMLSelect, sliderEnabled, voiceLabel, type SliderKey } from '../../core';
import { readsEmotion, type DubRole } from './dub-draft';

export interface RoleActions {
  pickVoice(roleId: string): void;
  rename(roleId: string, name: string): void;
  setSlider(roleId: string, key: SliderKey, value: number): void;
  resetSliders(roleId: string): void;
  setEmotion(roleId: string, emotion: string): void;
  remove(roleId: string): void;
  add(): void;
}

const SLIDERS: { key: SliderKey; label: string }[] = [
  { key: 'rate', label: '语速' },
  { key: 'volume', label: '音量' },
  { key: 'pitch', label: '音调' },
];

/** The role's colour slot, by its place in the list. */
export const toneOf = (roles: readonly DubRole[], roleId: string) => Math.max(0, roles.findIndex((r) => r.id === roleId)) % 5;

export const RoleCards = memo(function RoleCards({ roles, dialogue, actions }: { roles: DubRole[]; dialogue: boolean; actions: RoleActions }) {
  const shown = dialogue ? roles : roles.slice(0, 1);
  return (
    <div className={`dub-roles ${dialogue ? 'dialogue' : 'single'}`} data-testid="dub-roles">
      {shown.map((role, i) => (
        <RoleCard key={role.id} role={role} tone={i % 5} dialogue={dialogue} removable={dialogue && roles.length > 1} actions={actions} />
      ))}
      {dialogue && roles.length < LIMITS.dubbing.maxRoles && (
        <button type="button" className="dub-role-add" onClick={actions.add} data-testid="dub-role-add">
          <Icon icon="plus" />
          <span>添加角色</span>
          <small>最多{LIMITS.dubbing.maxRoles}个</small>
        </button>
      )}
    </div>
  );
});

function RoleCard({ role, tone, dialogue, removable, actions }: { role: DubRole; tone: number; dialogue: boolean; removable: boolean; actions: RoleActions }) {
  const api = role.voice?.api;
  const changed = role.rate !== 1 || role.volume !== 1 || role.pitch !== 1;
  const settings = (
    <div className="dub-role-settings" data-testid="dub-role-settings">
      {SLIDERS.map(({ key, label }) => {
        const range = LIMITS.sliders[key];
        const enabled = sliderEnabled(api, key);
        return (
          <label key={key} className={`dub-slider ${enabled ? '' : 'disabled'}`} title={enabled ? undefined : '该声音通道不支持调节'}>
            <span className="dub-slider-label">{label}</span>
            <Slider min={range.min} max={range.max} stepSize={range.step} labelRenderer={false} value={role[key]} disabled={!enabled} onChange={(v) => actions.setSlider(role.id, key, v)} />
            <span className="dub-slider-value" data-testid={`dub-role-${key}`}>{role[key].toFixed(1)}</span>
          </label>
        );
      })}
      {readsEmotion(api) && (
        <label className="dub-slider">
          <span className="dub-slider-label">情绪</span>
          <HTMLSelect value={role.emotion} onChange={(e) => actions.setEmotion(role.id, e.currentTarget.value)} fill data-testid="dub-role-emotion">
            {LIMITS.emotions.map((e) => (
              <option key={e.value} value={e.value}>{e.label}</option>
            ))}
          </HTMLSelect>
        </label>
      )}
      <Button size="small" variant="minimal" icon="reset" text="恢复默认" onClick={() => actions.resetSliders(role.id)} className="dub-role-reset" />
    </div>
  );

  return (
    <section className={`dub-role tone-${tone} ${role.voice ? '' : 'empty'}`} data-testid="dub-role" data-role={role.name} aria-label={dialogue ? `角色 ${role.name}` : '配音声音'}>
      <div className="dub-role-head">
        <span className="dub-role-dot" aria-hidden />
        {dialogue ? (
          <InputGroup
            small
            className="dub-role-name"
            value={role.name}
            maxLength={LIMITS.dubbing.roleNameMaxChars}
            placeholder="角色名"
            onValueChange={(name) => actions.rename(role.id, name)}
            aria-label="角色名"
            data-testid="dub-role-name"
          />
        ) : (
          <span className="dub-role-title">配音声音</span>
        )}
        {removable && (
          <Tooltip content="删除角色（其台词归第一个角色）" placement="top" compact>
            <Button variant="minimal" size="small" icon="cross" aria-label="删除角色" onClick={() => actions.remove(role.id)} data-testid="dub-role-remove" />
          </Tooltip>
        )}
      </div>
      <button type="button" className="dub-role-voice" onClick={() => actions.pickVoice(role.id)} data-testid="dub-role-voice">
        <Icon icon={role.voice ? 'music' : 'plus'} size={14} />
        <span className="dub-role-voice-name">{role.voice?.name ?? '选择声音'}</span>
        {role.voice && <Tag minimal round className="dub-role-voice-tag">{voiceLabel(role.voice)}</Tag>}
      </button>
      <Popover content={settings} placement="bottom-start" minimal={false}>
        <Button size="small" variant="minimal" icon="settings" className="dub-role-tune" data-testid="dub-role-tune">
          {`语速 ${role.rate.toFixed(1)} · 音量 ${role.volume.toFixed(1)} · 音调 ${role.pitch.toFixed(1)}`}
          {changed && <span className="dub-role-changed" aria-label="已调整" />}
        </Button>
      </Popover>
    </section>
  );
}
