/**
 * One storyboard scene: its text, its kind, for B-roll its picture (from my pictures, uploaded here, or generated) and
 * camera motion; move, split, merge, delete.
 */
import { useState } from 'react';
import { Button, ButtonGroup, Spinner, TextArea } from '@blueprintjs/core';
import { LIMITS, MSG, SCENE_KINDS, SCENE_KIND_LABELS, SCENE_MOTIONS, SCENE_MOTION_LABELS, estimateSeconds, type Material, type SceneKind, type SceneMotion, type StoryScene } from '../../../contract';
import { HTMLSelect, UploadBox, useStore, useValue } from '../../../core';
import type { OneclickScreen } from '../oneclick-state';

const MB = 1024 * 1024;
const extOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
/** The material library's image check (the server checks the same at registration). */
const checkImage = (f: File) => (!LIMITS.image.formats.includes(extOf(f.name) as never) ? MSG.imageInvalid : f.size <= 0 || f.size > LIMITS.image.maxBytes ? MSG.imageTooLarge : null);

interface Props {
  screen: OneclickScreen;
  scene: StoryScene;
  index: number;
  count: number;
  pictures: Material[];
}

/** A stored object's address without its signature (the list signs it anew each time it is asked). */
const objectPath = (url: string | undefined) => (url ?? '').split('?')[0];

export function SceneCard({ screen, scene, index, count, pictures }: Props) {
  const broll = scene.kind === 'broll';
  const picked = pictures.find((p) => objectPath(p.url) === objectPath(scene.image_url));
  const shown = picked?.url ?? scene.image_url;
  const painting = useValue(screen.assist.painting$).some((p) => p.text === scene.text);
  const form = useValue(screen.form$);
  const video = useStore(screen.avatars).value?.find((a) => a.id === form.video_id);
  const photo = useStore(screen.photos).value?.find((p) => p.id === form.photo_id);
  // Who speaks the avatar scenes: the photo-speak picture when one is chosen, else the avatar video.
  const avatar = form.photo_id ? photo && { name: photo.name, cover: photo.cover } : video && { name: video.name, cover: video.cover_small || video.cover };
  const [uploading, setUploading] = useState(false);
  return (
    <div className={`oc-scene oc-scene-${scene.kind}`} data-testid="oneclick-scene" data-kind={scene.kind}>
      <div className="oc-scene-head">
        <span className="oc-scene-no">{index + 1}</span>
        <HTMLSelect value={scene.kind} onChange={(e) => screen.patchScene(index, { kind: e.target.value as SceneKind })} data-testid="oneclick-scene-kind" aria-label="分镜类型">
          {SCENE_KINDS.map((k) => (
            <option key={k} value={k}>
              {SCENE_KIND_LABELS[k]}
            </option>
          ))}
        </HTMLSelect>
        <span className="oc-scene-secs">约 {estimateSeconds(scene.text).toFixed(1)} 秒</span>
        <ButtonGroup minimal className="oc-scene-tools">
          <Button icon="arrow-up" title="上移" disabled={index === 0} onClick={() => screen.move(index, -1)} />
          <Button icon="arrow-down" title="下移" disabled={index === count - 1} onClick={() => screen.move(index, 1)} />
          <Button icon="split-columns" title="拆分" onClick={() => screen.split(index)} data-testid="oneclick-scene-split" />
          <Button icon="merge-columns" title="与下一个合并" disabled={index === count - 1} onClick={() => screen.merge(index)} data-testid="oneclick-scene-merge" />
          <Button icon="trash" intent="danger" title="删除" onClick={() => screen.remove(index)} data-testid="oneclick-scene-delete" />
        </ButtonGroup>
      </div>
      <div className="oc-scene-body">
        {!broll && avatar && (
          // The avatar scene's preview: who speaks it, with the title card over the first scene.
          <div className="oc-avatar-line">
            <img className="oc-thumb oc-thumb-small" src={avatar.cover} alt="" data-testid="oneclick-scene-preview" />
            <span className="oc-hint">{avatar.name} 口播{index === 0 && form.title_card.trim() ? ` · 片头标题「${form.title_card.trim()}」` : ''}</span>
          </div>
        )}
        <TextArea fill rows={2} value={scene.text} onChange={(e) => screen.patchScene(index, { text: e.target.value })} data-testid="oneclick-scene-text" aria-label="分镜文案" />
        {broll && (
          <div className="oc-broll">
            {shown ? (
              // The B-roll preview: the picture moving as its camera motion will.
              <div className="oc-thumb oc-thumb-frame" data-testid="oneclick-scene-preview">
                <img className={`oc-motion-${scene.motion ?? 'in'}`} src={shown} alt="" />
              </div>
            ) : (
              <div className="oc-thumb oc-thumb-empty" data-testid={painting ? 'oneclick-scene-painting' : undefined}>
                {painting ? <Spinner size={20} /> : '未选图片'}
              </div>
            )}
            <div className="oc-broll-fields">
              <HTMLSelect fill value={picked?.url ?? ''} onChange={(e) => screen.patchScene(index, { image_url: e.target.value || undefined })} data-testid="oneclick-scene-picture" aria-label="画面图片">
                <option value="">从我的图片素材选择</option>
                {pictures.map((p) => (
                  <option key={p.id} value={p.url}>
                    {p.name}
                  </option>
                ))}
              </HTMLSelect>
              {uploading ? (
                <UploadBox
                  type="image"
                  compact
                  accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                  check={checkImage}
                  title="选择或拖入图片"
                  hint={`PNG / JPG，${LIMITS.image.maxBytes / MB}MB 以内`}
                  onUploaded={(file) => {
                    setUploading(false);
                    screen.assist.uploaded(index, file.url);
                  }}
                  className="oc-upload"
                  data-testid="oneclick-scene-upload"
                />
              ) : (
                <Button icon="cloud-upload" text="上传图片" alignText="start" onClick={() => setUploading(true)} data-testid="oneclick-scene-upload-open" />
              )}
              <HTMLSelect fill value={scene.motion ?? 'in'} onChange={(e) => screen.patchScene(index, { motion: e.target.value as SceneMotion })} data-testid="oneclick-scene-motion" aria-label="镜头运动">
                {SCENE_MOTIONS.map((m) => (
                  <option key={m} value={m}>
                    镜头：{SCENE_MOTION_LABELS[m]}
                  </option>
                ))}
              </HTMLSelect>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
