/**
 * /pet and /store/imageSpeak (part 2 §2.4): the AI library and my uploads. My uploads starts with an upload card;
 * hovering a picture offers 创建视频 (to the creation screen) and, on my own pictures, delete with confirmation.
 * `?type=…` opens the upload dialog on my uploads.
 */
import { useEffect, useState, type FormEvent, type MouseEvent as ReactMouseEvent } from 'react';
import { Button, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, Icon, InputGroup, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import { API, LIMITS, MSG, PhotoType, type Photo } from '../../../contract';
import {
  ConfirmDelete, TOKENS, UploadBox, listPending, useDeletion, useRemoteList, useService,
  type ApiClient, type Navigation, type Notifier, type PanelProps, type UploadedFile,
  PageHeader,
} from '../../../core';
import { PERSON_LIBRARY, PET_LIBRARY, TAB_SOURCE, canDelete, establishQuery, opensUpload, uploadProblem, type LibraryKind, type LibraryTab } from '../photo-view';
import './photo.css';

export const PetLibraryPanel = (props: PanelProps) => <PhotoLibraryPanel {...props} kind={PET_LIBRARY} />;
export const PersonLibraryPanel = (props: PanelProps) => <PhotoLibraryPanel {...props} kind={PERSON_LIBRARY} />;

function PhotoLibraryPanel({ kind, query }: PanelProps & { kind: LibraryKind }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const wantsUpload = opensUpload(query);
  const [tab, setTab] = useState<LibraryTab>(wantsUpload ? 'mine' : 'public');
  const [uploading, setUploading] = useState(wantsUpload);
  useEffect(() => {
    if (!wantsUpload) return;
    setTab('mine');
    setUploading(true);
  }, [wantsUpload, query.type]);

  const photos = useRemoteList<Photo>(
    `${kind.type}:${tab}`,
    async (signal) => (await api.call(API.photo.list, { source: TAB_SOURCE[tab], type: kind.type, page: 1, limit: 0 }, { silent: true, signal })).list,
    { clearOnKeyChange: true },
  );
  const deletion = useDeletion<Photo>((photo) => api.call(API.photo.remove, { id: photo.id }), photos.reload);
  const create = (photo: Photo) => navigation.navigate(kind.establish, establishQuery(photo));
  const { list, loading } = photos;
  const pending = listPending(photos);

  return (
    <div className="ph-page" data-testid="photo-library" data-type={kind.type}>
      <div className="ph-inner">
        <PageHeader icon={kind.icon} title={kind.title} subtitle={kind.subtitle} className="ph-head">
          <Button intent="primary" icon="cloud-upload" text={`上传${kind.noun}`} onClick={() => (setTab('mine'), setUploading(true))} data-testid="photo-upload-open" />
        </PageHeader>
        <Tabs id={`photo-tabs-${kind.type}`} selectedTabId={tab} onChange={(id) => setTab(id === 'mine' ? 'mine' : 'public')} size="large" className="ph-tabs">
          <Tab id="public" title={kind.publicTab} data-testid="photo-tab-public" />
          <Tab id="mine" title="我的上传" data-testid="photo-tab-mine" />
        </Tabs>

        {pending ? pending : tab === 'public' && list.length === 0 ? (
          <div className="card-center">
            <NonIdealState icon={kind.icon} title={`${kind.publicTab}暂无图片`} description="运营上架后会在这里出现，也可以上传自己的图片。" />
          </div>
        ) : (
          <div className={`card-grid ${loading ? 'refreshing' : ''}`} data-testid="photo-grid">
            {tab === 'mine' && (
              <article className="ph-card">
                <button type="button" className="card-cover ph-cover ph-add" onClick={() => setUploading(true)} data-testid="photo-add">
                  <span className="ph-add-icon">
                    <Icon icon="plus" size={22} />
                  </span>
                  <span className="ph-add-title">上传{kind.noun}</span>
                  <span className="ph-add-text">PNG/JPG，不超过10MB</span>
                </button>
                <div className="ph-name ph-name-muted">上传后即可创建视频</div>
              </article>
            )}
            {list.map((photo) => (
              <PhotoCard key={photo.id} photo={photo} onCreate={create} onDelete={canDelete(photo) ? deletion.ask : undefined} />
            ))}
          </div>
        )}
      </div>

      <UploadDialog
        kind={kind}
        isOpen={uploading}
        onClose={() => setUploading(false)}
        onAdded={() => {
          setUploading(false);
          if (tab === 'mine') photos.reload();
          else setTab('mine');
        }}
      />
      <ConfirmDelete
        deletion={deletion}
        title={`删除「${deletion.target?.name ?? ''}」？`}
        text="删除后不可恢复，已生成的作品不受影响。"
        classPrefix="ph"
      />
    </div>
  );
}

function PhotoCard({ photo, onCreate, onDelete }: { photo: Photo; onCreate: (p: Photo) => void; onDelete?: (p: Photo) => void }) {
  return (
    <article className="ph-card" data-testid="photo-card" data-id={photo.id} data-source={photo.source}>
      <div className="card-cover ph-cover" tabIndex={0} aria-label={photo.name}>
        <img className="card-cover-bg" src={photo.cover} alt="" aria-hidden draggable={false} />
        <img className="ph-cover-img" src={photo.cover} alt={photo.name} loading="lazy" draggable={false} />
        <div className="ph-actions">
          <Button intent="primary" icon="video" text="创建视频" onClick={() => onCreate(photo)} data-testid="photo-create" />
        </div>
        {onDelete && <Button className="ph-delete" size="small" icon="trash" aria-label="删除" title="删除" onClick={() => onDelete(photo)} data-testid="photo-delete" />}
      </div>
      <div className="ph-name" title={photo.name}>
        {photo.name}
      </div>
    </article>
  );
}

/** Where the pet's mouth is, as fractions of the picture (the server moves it with the speech). */
type MouthMark = { x: number; y: number };

/** The uploaded pet picture: a click marks the mouth (a pet's face is not one the detector knows); another click moves it. */
function MouthMarker({ image, mark, onMark }: { image: string; mark: MouthMark | null; onMark: (mark: MouthMark) => void }) {
  const place = (e: ReactMouseEvent<HTMLImageElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const clamp = (v: number) => Math.min(1, Math.max(0, Math.round(v * 1000) / 1000));
    onMark({ x: clamp((e.clientX - box.left) / box.width), y: clamp((e.clientY - box.top) / box.height) });
  };
  return (
    <div className="ph-mouth" data-testid="photo-mouth">
      <p className="ph-mouth-hint">
        <Icon icon={mark ? 'tick-circle' : 'locate'} size={14} />
        {mark ? MSG.photoMouthMarked : MSG.photoMouthHint}
      </p>
      <div className="ph-mouth-frame">
        <img src={image} alt="点击标出嘴巴位置" onClick={place} data-testid="photo-mouth-image" />
        {mark && <span className="ph-mouth-dot" style={{ left: `${mark.x * 100}%`, top: `${mark.y * 100}%` }} data-testid="photo-mouth-dot" aria-hidden />}
      </div>
    </div>
  );
}

/** Name, image (png/jpg ≤ 10 MB; the server checks the content) and the agreement, checked by default and not enforced. */
function UploadDialog({ kind, isOpen, onClose, onAdded }: { kind: LibraryKind; isOpen: boolean; onClose: () => void; onAdded: () => void }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [name, setName] = useState('');
  const [image, setImage] = useState<UploadedFile | null>(null);
  const [agreed, setAgreed] = useState(true);
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const [mouth, setMouth] = useState<MouthMark | null>(null);
  useEffect(() => {
    if (!isOpen) return;
    setName('');
    setImage(null);
    setAgreed(true);
    setMouth(null);
  }, [isOpen]);
  const marksMouth = kind.type === PhotoType.Pet;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = uploadProblem(kind, { name, fileId: image?.file_id ?? null });
    if (problem) {
      notifier.warn(problem);
      return;
    }
    setSending(true);
    try {
      await api.call(API.photo.create, { type: kind.type, name: name.trim(), file_id: image!.file_id, ...(marksMouth && mouth ? { mouth_x: mouth.x, mouth_y: mouth.y } : {}) });
      notifier.success(MSG.ok);
      onAdded();
    } catch {
      /* the server's message was shown */
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={`上传${kind.noun}`} icon="cloud-upload" className="ph-dialog">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogBody>
          <FormGroup label={`${kind.noun}名称`} labelFor="photo-name">
            <InputGroup id="photo-name" value={name} onValueChange={setName} maxLength={LIMITS.nameMaxChars} placeholder={`请输入${kind.noun}名称`} data-testid="photo-name" />
          </FormGroup>
          <FormGroup label={`${kind.noun}图片`}>
            <UploadBox
              type="image"
              accept=".png,.jpg,.jpeg"
              compact
              check={(file) => (file.size > LIMITS.image.maxBytes ? MSG.imageTooLarge : null)}
              hint={`支持 PNG、JPG，不超过 10MB，短边不小于 ${LIMITS.image.minSide} 像素${kind.type === 2 ? '；正脸、五官清晰效果更好' : '；正脸、光线均匀时嘴部会随台词开合'}`}
              onUploaded={(file) => {
                setImage(file);
                setMouth(null);
              }}
              onRemoved={() => {
                setImage(null);
                setMouth(null);
              }}
              onBusyChange={setBusy}
              data-testid="photo-upload-box"
            />
          </FormGroup>
          {marksMouth && image && <MouthMarker image={image.url} mark={mouth} onMark={setMouth} />}
          <Checkbox checked={agreed} onChange={(e) => setAgreed(e.currentTarget.checked)} className="ph-agree" data-testid="photo-agree">
            我已阅读并同意
            <a href="#/protocol?type=user" target="_blank" rel="noopener" onClick={(e) => e.stopPropagation()}>
              《用户协议》
            </a>
            ，确认拥有该图片的使用权
          </Checkbox>
        </DialogBody>
        <DialogFooter
          actions={[
            <Button key="c" text="取消" onClick={onClose} />,
            <Button key="s" type="submit" intent="primary" text="确定" loading={sending} disabled={busy} data-testid="photo-submit" />,
          ]}
        />
      </form>
    </Dialog>
  );
}
