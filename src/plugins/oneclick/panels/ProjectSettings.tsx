/** Who speaks and how the video is framed: avatar, voice, video channel and aspect (the start screen and the storyboard's side). */
import { FormGroup, SegmentedControl } from '@blueprintjs/core';
import { MSG, ONECLICK_ASPECTS, type OneclickAspect } from '../../../contract';
import { HTMLSelect, RecordOptions, useStore, useValue } from '../../../core';
import type { OneclickScreen } from '../oneclick-state';
import { ASPECT_LABELS, avatarChoice, channelsFor, pickAvatar } from '../oneclick-view';

export function ProjectSettings({ screen }: { screen: OneclickScreen }) {
  const form = useValue(screen.form$);
  const avatars = useStore(screen.avatars).value ?? [];
  const photos = useStore(screen.photos).value ?? [];
  // 我的数字人, 公共数字人 and 照片数字人 (a photo-speak picture talks in the avatar scenes).
  const groups = [
    { label: '我的数字人', items: avatars.filter((a) => a.source !== 2).map((a) => ({ value: `v${a.id}`, name: a.name })) },
    { label: '公共数字人', items: avatars.filter((a) => a.source === 2).map((a) => ({ value: `v${a.id}`, name: a.name })) },
    { label: '照片数字人', items: photos.map((p) => ({ value: `p${p.id}`, name: p.source === 2 ? `公共 · ${p.name}` : p.name })) },
  ];
  const voices = useStore(screen.voices).value ?? [];
  const allChannels = useStore(screen.channels).value ?? [];
  const channels = channelsFor(allChannels, form);
  return (
    <div className="oc-settings">
      <FormGroup label="数字人" labelFor="oc-avatar" className="tool-group" helperText={form.photo_id ? MSG.lipPictureNote : undefined}>
        <HTMLSelect id="oc-avatar" fill value={avatarChoice(form)} onChange={(e) => screen.patch(pickAvatar(e.target.value, form, allChannels))} data-testid="oneclick-avatar">
          <option value="">请选择数字人</option>
          {groups.map(({ label, items }) =>
            items.length ? (
              <optgroup key={label} label={label}>
                {items.map((i) => (
                  <option key={i.value} value={i.value}>
                    {i.name}
                  </option>
                ))}
              </optgroup>
            ) : null,
          )}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="声音" labelFor="oc-voice" className="tool-group">
        <HTMLSelect id="oc-voice" fill value={form.user_voice_id} onChange={(e) => screen.patch({ user_voice_id: Number(e.target.value) })} data-testid="oneclick-voice">
          <option value={0}>请选择声音</option>
          <RecordOptions items={voices} />
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="视频通道" labelFor="oc-channel" className="tool-group">
        <HTMLSelect id="oc-channel" fill value={form.api} onChange={(e) => screen.patch({ api: e.target.value })} data-testid="oneclick-channel">
          {channels.map((c) => (
            <option key={c.api} value={c.api}>
              {c.name} · {c.credits} 积分/秒
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="画面比例" className="tool-group">
        <SegmentedControl
          fill
          options={ONECLICK_ASPECTS.map((a) => ({ value: a, label: ASPECT_LABELS[a] }))}
          value={form.aspect}
          onValueChange={(v) => screen.patch({ aspect: v as OneclickAspect })}
          data-testid="oneclick-aspect"
        />
      </FormGroup>
    </div>
  );
}
