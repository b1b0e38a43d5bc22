import { useEffect, useRef, useState } from 'react';
import { Button, Icon, NonIdealState } from '@blueprintjs/core';
import { API, MSG, PhotoSource, type Material, type Photo } from '../../../contract';
import { Segments, useRemoteList, useScreenServices } from '../../../core';
import { useCreate } from './create-draft';
import { photoOf } from './create-logic';
import { paneState } from './pane-state';

type Source = 'public' | 'mine' | 'material';
const SOURCE_OF: Record<Exclude<Source, 'material'>, number> = { public: PhotoSource.Public, mine: PhotoSource.Mine };

/** A card of the picker: a picture, or (characters) an image of the material library. */
interface Card {
  key: string;
  id: number;
  name: string;
  cover: string;
  photo?: Photo;
}

/**
 * The picture picker of /pet/establish and /store/characters (part 2 §2.2): the AI library and my uploads, with a
 * jump to the library's upload dialog; on characters also the material library's images (picking one adds it to my
 * uploads, since a work is made from a picture). The address's picture (?id=…&source=1|2, or &sc for a material
 * image) is picked once its list has loaded.
 */
export function PicturePane() {
  const { draft, update, query, screen } = useCreate();
  const { api, navigation, notifier } = useScreenServices();
  const type = screen.pictureType!;
  const [source, setSource] = useState<Source>(query.material && screen.materialImages ? 'material' : query.photoSource === 1 ? 'mine' : 'public');
  const [adding, setAdding] = useState(false);
  const photos = useRemoteList<Card>(
    `pictures:${type}:${source}`,
    async (signal) => {
      if (source === 'material') {
        const { list } = await api.call(API.material.list, { page: 1, limit: 9999, type: 'image', source: 0 }, { silent: true, signal });
        return list.map((m: Material) => ({ key: `m${m.id}`, id: m.id, name: m.name, cover: m.cover || m.url }));
      }
      const { list } = await api.call(API.photo.list, { source: SOURCE_OF[source], type, page: 1, limit: 0 }, { silent: true, signal });
      return list.map((p) => ({ key: `p${p.id}`, id: p.id, name: p.name, cover: p.cover, photo: p }));
    },
    { clearOnKeyChange: true },
  );

  /** A material image becomes one of my pictures, then it is picked (and my uploads shows it). */
  const pick = async (card: Card) => {
    if (card.photo) {
      update({ avatar: photoOf(card.photo) });
      return;
    }
    if (adding) return;
    setAdding(true);
    try {
      const { id } = await api.call(API.photo.create, { type, name: card.name, material_id: card.id });
      const { list } = await api.call(API.photo.list, { source: PhotoSource.Mine, type, page: 1, limit: 0 });
      const made = list.find((p) => p.id === id);
      if (made) update({ avatar: photoOf(made) });
      notifier.success(MSG.ok);
    } catch {
      /* the server's message was shown */
    } finally {
      setAdding(false);
    }
  };

  const applied = useRef<number | null>(null);
  useEffect(() => {
    const id = query.avatarId;
    if (id === null || applied.current === id || photos.loading) return;
    const hit = photos.list.find((p) => p.id === id);
    if (hit) {
      applied.current = id;
      void pick(hit);
    } else if (query.photoSource === null && source === 'public') setSource('mine');
    else applied.current = id;
  }, [query.avatarId, query.photoSource, photos.loading, photos.list, source, update]);

  const isPicked = (c: Card) => c.photo !== undefined && draft.avatar?.kind === 'photo' && draft.avatar.id === c.id;
  const toUpload = () => navigation.navigate(screen.library!, { type: 'upload' });

  return (
    <div className="cr-pane" data-testid="create-pictures">
      <Segments value={source} onChange={(v) => setSource(v as Source)} options={[['mine', '我的上传'], ['material', '素材库']]} className="cr-segment" testId="create-picture-source" />
      {source === 'mine' && <Button className="cr-picture-upload" size="small" icon="cloud-upload" text="去上传" fill onClick={toUpload} data-testid="create-picture-upload" />}
      {paneState(
        { loading: photos.loading, error: photos.error, count: photos.list.length },
        <NonIdealState
          icon={source === 'material' ? 'folder-open' : type === 2 ? 'heart' : 'mugshot'}
          description={source === 'mine' ? '还没有上传图片，点「去上传」添加' : source === 'material' ? '素材库中还没有图片' : '暂无图片'}
          className="cr-empty"
        />,
      ) ?? (
        <div className="cr-avatar-grid">
          {photos.list.map((p) => (
            <button
              type="button"
              key={p.key}
              className={`cr-avatar ${isPicked(p) ? 'picked' : ''}`}
              onClick={() => void pick(p)}
              disabled={adding}
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
