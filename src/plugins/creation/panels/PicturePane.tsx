import { useEffect, useRef, useState } from 'react';
import { Button, Icon, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { API, PhotoSource, type Photo } from '../../../contract';
import { TOKENS, useRemoteList, useService, type ApiClient, type Navigation } from '../../../core';
import { useCreate } from './create-draft';
import { photoOf } from './create-logic';

type Source = 'public' | 'mine';
const SOURCE_OF: Record<Source, number> = { public: PhotoSource.Public, mine: PhotoSource.Mine };

/**
 * The picture picker of /pet/establish and /store/characters (part 2 §2.2): the AI library and my uploads, with a
 * jump to the library's upload dialog. The address's picture (?id=…&source=1|2) is picked once its list has loaded.
 */
export function PicturePane() {
  const { draft, update, query, screen } = useCreate();
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const type = screen.pictureType!;
  const [source, setSource] = useState<Source>(query.photoSource === 1 ? 'mine' : 'public');
  const photos = useRemoteList<Photo>(
    `pictures:${type}:${source}`,
    async (signal) => (await api.call(API.photo.list, { source: SOURCE_OF[source], type, page: 1, limit: 0 }, { silent: true, signal })).list,
    { clearOnKeyChange: true },
  );

  const applied = useRef<number | null>(null);
  useEffect(() => {
    const id = query.avatarId;
    if (id === null || applied.current === id || photos.loading) return;
    const hit = photos.list.find((p) => p.id === id);
    if (hit) {
      applied.current = id;
      update({ avatar: photoOf(hit) });
    } else if (query.photoSource === null && source === 'public') setSource('mine');
    else applied.current = id;
  }, [query.avatarId, query.photoSource, photos.loading, photos.list, source, update]);

  const isPicked = (p: Photo) => draft.avatar?.kind === 'photo' && draft.avatar.id === p.id;
  const toUpload = () => navigation.navigate(screen.library!, { type: 'upload' });

  return (
    <div className="cr-pane" data-testid="create-pictures">
      <SegmentedControl
        className="cr-segment"
        size="small"
        value={source}
        onValueChange={(v) => setSource(v === 'mine' ? 'mine' : 'public')}
        options={[
          { label: type === 2 ? 'AI宠物库' : 'AI图片库', value: 'public' },
          { label: '我的上传', value: 'mine' },
        ]}
        data-testid="create-picture-source"
      />
      {source === 'mine' && <Button className="cr-picture-upload" size="small" icon="cloud-upload" text="去上传" fill onClick={toUpload} data-testid="create-picture-upload" />}
      {photos.loading && photos.list.length === 0 ? (
        <div className="cr-center">
          <Spinner size={20} />
        </div>
      ) : photos.error ? (
        <NonIdealState icon="error" description={photos.error} className="cr-empty" />
      ) : photos.list.length === 0 ? (
        <NonIdealState icon={type === 2 ? 'heart' : 'mugshot'} description={source === 'mine' ? '还没有上传图片，点「去上传」添加' : '暂无图片'} className="cr-empty" />
      ) : (
        <div className="cr-avatar-grid">
          {photos.list.map((p) => (
            <button
              type="button"
              key={p.id}
              className={`cr-avatar ${isPicked(p) ? 'picked' : ''}`}
              onClick={() => update({ avatar: photoOf(p) })}
              aria-pressed={isPicked(p)}
              title={p.name}
              data-testid="create-picture"
              data-id={p.id}
            >
              <span className="cr-avatar-cover cr-picture-cover">
                <img src={p.cover} alt="" loading="lazy" />
                {isPicked(p) && <Icon icon="tick-circle" className="cr-avatar-tick" />}
              </span>
              <span className="cr-avatar-name">{p.name}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
