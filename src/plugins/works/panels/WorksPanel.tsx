import { useState } from 'react';
import { Button, Icon, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { API, MSG } from '../../../contract';
import { ConfirmDelete, RenameDialog, TOKENS, useDeletion, useRenaming, useService, useSubscription, type ApiClient, type Navigation, type PanelProps } from '../../../core';
import { WORKS_ROUTE, WorksStateToken, type WorksState } from '../works-state';
import { LEVEL1, tabFromQuery, tabsOf, type Level1, type WorkItem, type WorksTab } from '../works-view';
import { WorkCard } from './WorkCard';
import { DownloadDialog, PlayerDialog } from './WorkDialogs';
import { useWorks, type Counts } from './use-works';
import './works.css';

/** A level's count: the sum of the counts that came back (a list whose call failed counts as unknown, not 0). */
const sum = (counts: Counts, tabs: readonly WorksTab[]) => {
  const values = tabs.map((t) => counts[t.key]).filter((v): v is number => v !== undefined);
  return values.length ? values.reduce((a, b) => a + b, 0) : undefined;
};

/** /works (part 1 §2 Works, §4): 视频作品 / 多场景作品, each list with its count; query type1 / type2 select the tab. */
export default function WorksPanel({ query, closed$ }: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const state = useService<WorksState>(WorksStateToken);
  const tab = tabFromQuery(query);
  const works = useWorks(tab, closed$);
  const [playing, setPlaying] = useState<WorkItem | null>(null);
  const [downloading, setDownloading] = useState<WorkItem | null>(null);
  const deletion = useDeletion<WorkItem>((item) => (item.kind === 'translate' ? api.call(API.translation.remove, { id: item.id }) : api.call(API.works.remove, { id: item.id })), works.refresh);

  useSubscription(state.refresh$, works.refresh);
  const renaming = useRenaming<WorkItem>((item, name) => api.call(API.works.rename, { id: item.id, name }), works.refresh);

  const select = (next: WorksTab) => navigation.navigate(WORKS_ROUTE, { type1: next.type1, type2: next.type2 }, { replace: true });
  const selectLevel = (type1: Level1) => {
    if (type1 !== tab.type1) select(tabsOf(type1)[0]!);
  };

  const { items, counts, loaded, loading, error } = works;

  return (
    <div className="wk-page" data-testid="works-panel">
      <div className="wk-inner">
        <header className="wk-head">
          <Tabs id="works-level1" selectedTabId={tab.type1} onChange={(id) => selectLevel(Number(id) === 1 ? 1 : 0)} size="large" className="wk-tabs">
            {LEVEL1.map((level) => {
              const total = sum(counts, tabsOf(level.type1));
              return (
                <Tab
                  key={level.type1}
                  id={level.type1}
                  data-testid={`works-level-${level.type1}`}
                  title={
                    <span className="wk-level-title">
                      {level.title}
                      {total !== undefined && <span className="wk-level-count">{total}</span>}
                    </span>
                  }
                />
              );
            })}
          </Tabs>
          <div className="wk-head-actions">
            {works.polling && (
              <span className="wk-polling" title="有作品在生成中，每15秒自动刷新" data-testid="works-polling">
                <Spinner size={12} />
                自动刷新中
              </span>
            )}
            <Button variant="minimal" icon="refresh" text="刷新" onClick={works.refresh} loading={loading && loaded} data-testid="works-refresh" />
          </div>
        </header>

        <div className="wk-subtabs" role="tablist" aria-label="作品类型">
          {tabsOf(tab.type1).map((t) => (
            <button
              key={t.key}
              type="button"
              role="tab"
              aria-selected={t.key === tab.key}
              className={`wk-subtab ${t.key === tab.key ? 'active' : ''}`}
              onClick={() => select(t)}
              data-testid={`works-tab-${t.key}`}
            >
              <span>{t.title}</span>
              <span className="wk-subtab-count" data-testid={`works-count-${t.key}`}>
                {counts[t.key] ?? '–'}
              </span>
            </button>
          ))}
        </div>

        {!loaded && !error ? (
          <div className="wk-center">
            <Spinner size={28} />
          </div>
        ) : error === MSG.comingSoon ? (
          <div className="wk-center" data-testid="works-soon">
            <NonIdealState icon="time" title={`${tab.title} · ${MSG.comingSoonPanel}`} description={MSG.comingSoon} />
          </div>
        ) : error ? (
          <div className="wk-center" data-testid="works-error">
            <NonIdealState icon="error" title="加载失败" description={error} action={<Button icon="refresh" text="重新加载" onClick={works.refresh} />} />
          </div>
        ) : items.length === 0 ? (
          <div className="wk-center" data-testid="works-empty">
            <NonIdealState
              icon={tab.audio ? 'music' : 'film'}
              title={`暂无${tab.title}`}
              description="提交创作后，作品会出现在这里，生成完成即可播放和下载。"
              action={<Button intent="primary" icon="plus" text={tab.create.label} onClick={() => navigation.navigate(tab.create.route)} data-testid="works-create" />}
            />
          </div>
        ) : (
          <>
            <div className="wk-grid" data-testid="works-grid">
              {items.map((item) => (
                <WorkCard
                  key={`${item.kind}-${item.id}`}
                  item={item}
                  audio={Boolean(tab.audio)}
                  onPlay={setPlaying}
                  onDownload={setDownloading}
                  onRename={renaming.ask}
                  onDelete={deletion.ask}
                />
              ))}
            </div>
            <div className="wk-foot">
              {works.hasMore ? (
                <Button variant="outlined" text="加载更多" loading={works.loadingMore} onClick={works.loadMore} data-testid="works-more" />
              ) : (
                <span className="wk-end">
                  <Icon icon="tick" size={12} /> 共 {items.length} 个作品
                </span>
              )}
            </div>
          </>
        )}
      </div>

      <PlayerDialog item={playing} audio={Boolean(tab.audio)} onClose={() => setPlaying(null)} />
      <DownloadDialog item={downloading} onClose={() => setDownloading(null)} />
      <RenameDialog {...renaming.dialog} title="重命名作品" label="作品名称" inputId="work-rename-input" className="wk-dialog" inputTestId="rename-input" saveTestId="rename-save" />
      <ConfirmDelete deletion={deletion} title={`永久删除作品「${deletion.target?.name ?? ''}」？`} text="删除后无法恢复，也无法再下载。" confirmText="永久删除" classPrefix="wk" />
    </div>
  );
}
