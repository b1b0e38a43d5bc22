import { useState } from 'react';
import { Button, NonIdealState, SegmentedControl, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { API, MSG, type Material, type MaterialType } from '../../../contract';
import { ConfirmDelete, RenameDialog, TOKENS, useDeletion, usePagedList, useRenaming, useService, useSubscription, type ApiClient, type Navigation, type Page, type PanelProps } from '../../../core';
import { MaterialStateToken, type MaterialState } from '../material-state';
import { MATERIAL_ROUTE, MATERIAL_TABS, SOURCE_OPTIONS, emptyText, sourceFromQuery, typeFromQuery, type MaterialSource } from '../material-view';
import { AudioRow, MediaCard, TextCard } from './MaterialCards';
import { PreviewDialog } from './MaterialDialogs';
import { UploadDialog } from './UploadDialog';
import './material.css';

const PAGE_SIZE = 60;

/** /material/index: tabs 视频 / 音频 / 图片 / 文本 with the source filter (全部 / 我上传的 / 工具保存); preview, rename, delete. */
export default function MaterialPanel({ query }: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const state = useService<MaterialState>(MaterialStateToken);
  const type = typeFromQuery(query.type);
  const source = sourceFromQuery(query.source);
  const list = usePagedList<Material, Page<Material>>(`${type}:${source}`, async (page, signal) => {
    const r = await api.call(API.material.list, { page, limit: PAGE_SIZE, type, source }, { silent: true, signal });
    return { items: r.list, total: r.total, more: r.list.length === PAGE_SIZE };
  });
  const [previewing, setPreviewing] = useState<Material | null>(null);
  const deletion = useDeletion<Material>((item) => api.call(API.material.remove, { id: item.id }), list.reload);
  const [uploading, setUploading] = useState(false);
  const { reload } = list;

  useSubscription(state.refresh$, reload);
  const renaming = useRenaming<Material>((item, name) => api.call(API.material.rename, { id: item.id, name }), reload);

  const select = (next: { type?: MaterialType; source?: MaterialSource }) =>
    navigation.navigate(MATERIAL_ROUTE, { type: next.type ?? type, source: next.source ?? source }, { replace: true });

  const tab = MATERIAL_TABS.find((t) => t.type === type)!;
  const empty = emptyText(type, source);
  const cardProps = { type, onPreview: setPreviewing, onRename: renaming.ask, onDelete: deletion.ask };

  return (
    <div className="mt-page" data-testid="material-panel">
      <div className="mt-inner">
        <header className="mt-head">
          <Tabs id="material-tabs" selectedTabId={type} onChange={(id) => select({ type: typeFromQuery(String(id)) })} size="large" className="mt-tabs">
            {MATERIAL_TABS.map((t) => (
              <Tab key={t.type} id={t.type} title={t.title} icon={t.icon} data-testid={`material-tab-${t.type}`} />
            ))}
          </Tabs>
          <div className="mt-head-actions">
            <SegmentedControl
              className="mt-source"
              size="small"
              options={SOURCE_OPTIONS.map((s) => ({ value: String(s.value), label: s.label }))}
              value={String(source)}
              onValueChange={(v) => select({ source: sourceFromQuery(v) })}
              data-testid="material-source"
            />
            {type !== 'text' && <Button intent="primary" icon="cloud-upload" text="上传素材" aria-label="上传素材" onClick={() => setUploading(true)} className="mt-upload-button" data-testid="material-upload-open" />}
          </div>
        </header>

        {!list.loaded && !list.error ? (
          <div className="mt-center">
            <Spinner size={28} />
          </div>
        ) : list.error === MSG.comingSoon ? (
          <div className="mt-center" data-testid="material-soon">
            <NonIdealState icon="time" title={`我的素材 · ${MSG.comingSoonPanel}`} description={MSG.comingSoon} />
          </div>
        ) : list.error ? (
          <div className="mt-center" data-testid="material-error">
            <NonIdealState icon="error" title="加载失败" description={list.error} action={<Button icon="refresh" text="重新加载" onClick={reload} />} />
          </div>
        ) : list.items.length === 0 ? (
          <div className="mt-center" data-testid="material-empty">
            <NonIdealState icon={tab.icon} title={empty.title} description={empty.description} />
          </div>
        ) : (
          <>
            {type === 'audio' ? (
              <div className="mt-rows" data-testid="material-list">
                {list.items.map((item) => (
                  <AudioRow key={item.id} item={item} {...cardProps} />
                ))}
              </div>
            ) : type === 'text' ? (
              <div className="mt-text-grid" data-testid="material-list">
                {list.items.map((item) => (
                  <TextCard key={item.id} item={item} {...cardProps} />
                ))}
              </div>
            ) : (
              <div className={`mt-grid ${type}`} data-testid="material-list">
                {list.items.map((item) => (
                  <MediaCard key={item.id} item={item} {...cardProps} />
                ))}
              </div>
            )}
            {list.hasMore && (
              <div className="mt-foot">
                <Button variant="outlined" text="加载更多" loading={list.loadingMore} onClick={list.loadMore} data-testid="material-more" />
              </div>
            )}
          </>
        )}
      </div>

      {type !== 'text' && <UploadDialog type={type} isOpen={uploading} onClose={() => setUploading(false)} onUploaded={reload} />}
      <PreviewDialog item={previewing} type={type} onClose={() => setPreviewing(null)} />
      <RenameDialog {...renaming.dialog} title="重命名素材" label="素材名称" inputId="material-rename-input" className="mt-dialog" inputTestId="material-rename-input" saveTestId="material-rename-save" />
      <ConfirmDelete deletion={deletion} title={`删除素材「${deletion.target?.name ?? ''}」？`} text="删除后不可恢复，已使用该素材生成的作品不受影响。" classPrefix="mt" />
    </div>
  );
}
