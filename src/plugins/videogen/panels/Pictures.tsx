import { Button, Dialog, DialogBody, FormGroup, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { ImageToVideoMode, LIMITS, MSG } from '../../../contract';
import { UploadBox, useStore, useValue } from '../../../core';
import type { PictureField, VideoGenScreen } from '../videogen-state';

const check = (file: File) => (file.size > LIMITS.image.maxBytes ? MSG.imageTooLarge : null);
const HINT = `PNG/JPG，不超过 10MB，短边不小于 ${LIMITS.image.minSide} 像素`;

/** Image to video: the first/last-frame and image-reference tabs, each picture uploaded or taken from the material library. */
export function Pictures({ screen }: { screen: VideoGenScreen }) {
  const form = useValue(screen.form$);
  const box = (field: PictureField, label: string, testId: string) => (
    <FormGroup label={label} className="vg-picture">
      {form[field] ? (
        <div className="vg-picture-shown" data-testid={`${testId}-shown`}>
          <img src={form[field]} alt={label} />
          <Button size="small" icon="cross" aria-label="移除" title="移除" className="vg-picture-remove" onClick={() => screen.patch({ [field]: '' })} />
        </div>
      ) : (
        <>
          <UploadBox type="image" accept=".png,.jpg,.jpeg" compact check={check} hint={HINT} onUploaded={(u) => screen.setPicture(field, u.url)} data-testid={testId} />
          <Button size="small" variant="minimal" icon="folder-open" text="从素材库选择" className="vg-from-material" onClick={() => screen.openPicker(field)} data-testid={`${testId}-material`} />
        </>
      )}
    </FormGroup>
  );
  return (
    <div className="vg-card">
      <Tabs id="vg-image-mode" selectedTabId={form.imageMode} onChange={(id) => screen.patch({ imageMode: Number(id) })} className="vg-tabs">
        <Tab id={ImageToVideoMode.FirstLastFrame} title="首尾帧" data-testid="videogen-tab-frames" />
        <Tab id={ImageToVideoMode.Reference} title="图片参考" data-testid="videogen-tab-reference" />
      </Tabs>
      {form.imageMode === ImageToVideoMode.FirstLastFrame ? (
        <div className="vg-pictures">
          {box('image', '首帧（必填）', 'videogen-first')}
          {box('imageTail', '尾帧（可选）', 'videogen-last')}
        </div>
      ) : (
        <div className="vg-pictures">{box('image', '参考图', 'videogen-reference')}</div>
      )}
      <MaterialPicker screen={screen} />
    </div>
  );
}

/** The user's image materials (every uploaded picture is one); a click takes it. */
function MaterialPicker({ screen }: { screen: VideoGenScreen }) {
  const picking = useValue(screen.picking$);
  const images = useStore(screen.materials);
  const list = images.value ?? [];
  return (
    <Dialog isOpen={picking !== null} onClose={() => screen.closePicker()} title="从素材库选择图片" icon="folder-open" className="vg-dialog">
      <DialogBody>
        {!images.loaded ? (
          <Spinner size={20} />
        ) : list.length === 0 ? (
          <span className="vg-muted">素材库里还没有图片，上传的图片会自动进入素材库。</span>
        ) : (
          <div className="vg-material-grid" data-testid="videogen-material-grid">
            {list.map((m) => (
              <button type="button" key={m.id} className="vg-material" title={m.name} onClick={() => screen.pickMaterial(m.url)} data-testid="videogen-material">
                <img src={m.cover || m.url} alt={m.name} loading="lazy" />
              </button>
            ))}
          </div>
        )}
      </DialogBody>
    </Dialog>
  );
}
