/**
 * /store/extraction and /store/audioExtraction (part 2 §2.5, §2.6): a link box (a whole share text is fine) or, for
 * audio, the way selector with a local upload; the free count when above zero; tabs all / processing / failed; a
 * table of records (number, status, info, download and save to assets) that refreshes while one is processing.
 */
import { useState, type FormEvent } from 'react';
import { AnchorButton, Button, HTMLTable, Icon, InputGroup, NonIdealState, SegmentedControl, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { API, AnalyseStatus, AudioExtractType, LIMITS, MSG, type AnalyseRecord } from '../../../contract';
import {
  TOKENS, UploadBox, formatSize, useAction, useRemote, useService,
  type ApiClient, type AuthService, type Notifier, type PanelProps, type UploadedFile,
  PageHeader, TIMINGS,
} from '../../../core';
import { anyProcessing, AUDIO_EXTRACTION, downloadName, linkProblem, saveName, TABS, uploadProblem, VIDEO_EXTRACTION, WAYS, type ExtractionKind, type TabId } from '../extraction-view';
import './extraction.css';

export const VideoExtractionPanel = (props: PanelProps) => <ExtractionPanel {...props} kind={VIDEO_EXTRACTION} />;
export const AudioExtractionPanel = (props: PanelProps) => <ExtractionPanel {...props} kind={AUDIO_EXTRACTION} />;

const PAGE = 50;

function ExtractionPanel({ kind }: PanelProps & { kind: ExtractionKind }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const auth = useService<AuthService>(TOKENS.AuthService);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [tab, setTab] = useState<TabId>('all');
  const [way, setWay] = useState<number>(AudioExtractType.Link);
  const [text, setText] = useState('');
  const [video, setVideo] = useState<UploadedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadRound, setUploadRound] = useState(0);
  const submit = useAction();

  const status = TABS.find((t) => t.id === tab)!.status;
  const records = useRemote(
    `${kind.route}:${tab}`,
    (signal) => api.call(kind.list, { page: 1, limit: PAGE, ...(status ? { status } : {}) }, { silent: true, signal }),
    { poll: { intervalMs: TIMINGS.extractionPollMs, keepGoing: (v) => anyProcessing(v.list) }, clearOnKeyChange: true },
  );
  const list = records.value?.list ?? [];
  const free = records.value?.num ?? 0;
  const byUpload = kind.hasWays && way === AudioExtractType.Upload;

  const start = (e?: FormEvent) => {
    e?.preventDefault();
    if (submit.busy) return;
    if (byUpload && !video) return notifier.error(MSG.translateVideoRequired);
    const problem = byUpload ? null : linkProblem(text);
    if (problem) return notifier.error(problem);
    void submit.run(
      async () => {
        if (kind.hasWays) {
          const params = byUpload ? { type: AudioExtractType.Upload, file_id: video!.file_id } : { type: AudioExtractType.Link, link: text };
          await api.call(API.extraction.audioExtract, params, { silent: kind.silentFailures });
        } else await api.call(API.extraction.videoParse, { link: text });
      },
      {
        success: MSG.submitSucceeded,
        then: () => {
          setText('');
          setVideo(null);
          setUploadRound((r) => r + 1);
          if (tab === 'failed') setTab('all');
          else records.reload();
          void auth.refreshProfile().catch(() => undefined);
        },
      },
    );
  };

  return (
    <div className="ex-page" data-testid="extraction" data-route={kind.route}>
      <div className="ex-inner">
        <PageHeader icon={kind.icon} title={kind.title} subtitle={kind.subtitle}>
          <div className="ex-price">
            {free > 0 && (
              <Tag intent="success" round size="large" icon="star" data-testid="extraction-free">
                今日免费 {free} 次
              </Tag>
            )}
            <Tag minimal round size="large" icon="dollar">
              每次 {LIMITS.extractionCredits} 积分
            </Tag>
          </div>
        </PageHeader>

        <form className="ex-form" onSubmit={start}>
          {kind.hasWays && (
            <SegmentedControl
              className="ex-ways"
              options={WAYS.map((w) => ({ value: String(w.value), label: w.label }))}
              value={String(way)}
              onValueChange={(v) => setWay(Number(v))}
              data-testid="extraction-way"
            />
          )}
          {byUpload ? (
            <div className="ex-upload">
              <UploadBox
                key={uploadRound}
                type="video"
                accept=".mp4,.mov"
                check={uploadProblem}
                onUploaded={setVideo}
                onRemoved={() => setVideo(null)}
                onBusyChange={setUploading}
                hint={`支持 MP4/MOV，不超过${LIMITS.video.maxBytes / 1024 / 1024}MB`}
                compact
                data-testid="extraction-upload"
              />
              <Button type="submit" intent="primary" size="large" icon="music" text={kind.start} loading={submit.busy} disabled={uploading || !video} data-testid="extraction-start" />
            </div>
          ) : (
            <div className="ex-link">
              <InputGroup
                size="large"
                fill
                leftIcon="link"
                placeholder="粘贴分享链接或整段分享文案，例如：7.43 复制打开抖音，看看… https://v.douyin.com/…"
                value={text}
                onChange={(e) => setText(e.target.value)}
                maxLength={LIMITS.linkMaxChars}
                data-testid="extraction-link"
              />
              <Button type="submit" intent="primary" size="large" icon={kind.icon} text={kind.start} loading={submit.busy} data-testid="extraction-start" />
            </div>
          )}
        </form>

        <Tabs id={`ex-tabs-${kind.material}`} selectedTabId={tab} onChange={(id) => setTab(id as TabId)} className="ex-tabs">
          {TABS.map((t) => (
            <Tab key={t.id} id={t.id} title={t.title} data-testid={`extraction-tab-${t.id}`} />
          ))}
        </Tabs>

        {!records.loaded && records.loading ? (
          <div className="ex-center">
            <Spinner size={28} />
          </div>
        ) : records.error && !records.loaded ? (
          <div className="ex-center">
            <NonIdealState icon="error" title="加载失败" description={records.error} action={<Button icon="refresh" text="重新加载" onClick={records.reload} />} />
          </div>
        ) : list.length === 0 ? (
          <div className="ex-center">
            <NonIdealState icon={kind.icon} title="暂无记录" description={tab === 'all' ? '提交后的记录会出现在这里。' : '这里没有记录。'} />
          </div>
        ) : (
          <div className="ex-table-wrap">
            <HTMLTable className="ex-table" data-testid="extraction-table">
              <thead>
                <tr>
                  <th className="ex-col-no">序号</th>
                  <th className="ex-col-status">状态</th>
                  <th>{kind.material === 'video' ? '视频信息' : '音频信息'}</th>
                  <th className="ex-col-actions">操作</th>
                </tr>
              </thead>
              <tbody>
                {list.map((r, i) => (
                  <RecordRow key={r.id} index={i + 1} record={r} kind={kind} />
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
      </div>
    </div>
  );
}

function StatusCell({ record }: { record: AnalyseRecord }) {
  if (record.status === AnalyseStatus.Processing) {
    return (
      <Tag intent="primary" minimal round icon={<Spinner size={12} />}>
        {record.status_name}
      </Tag>
    );
  }
  if (record.status === AnalyseStatus.Failed) {
    return (
      <div className="ex-failed">
        <Tag intent="danger" minimal round icon="error">
          {record.status_name}
        </Tag>
        {record.reason && <div className="ex-reason" data-testid="extraction-reason">{record.reason}</div>}
      </div>
    );
  }
  return (
    <Tag intent="success" minimal round icon="tick">
      {record.status_name}
    </Tag>
  );
}

function RecordRow({ index, record, kind }: { index: number; record: AnalyseRecord; kind: ExtractionKind }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const save = useAction();
  const done = record.status === AnalyseStatus.Success;
  const saveToMaterial = () =>
    void save.run(() => api.call(API.extraction.saveToMaterial, { type: kind.material, source: 'analyse', name: saveName(record.desc), rid: record.id }), {
      success: MSG.savedToMaterial,
    });
  return (
    <tr data-testid="extraction-row" data-id={record.id} data-status={record.status}>
      <td className="ex-col-no">{index}</td>
      <td className="ex-col-status">
        <StatusCell record={record} />
      </td>
      <td>
        <div className="ex-info">
          <div className="ex-cover">
            {record.cover ? <img src={record.cover} alt="" loading="lazy" draggable={false} /> : <Icon icon={kind.material === 'video' ? 'video' : 'music'} size={22} />}
          </div>
          <div className="ex-info-text">
            <div className="ex-desc" title={record.desc}>
              {record.desc || (record.status === AnalyseStatus.Processing ? '正在解析…' : '—')}
            </div>
            <div className="ex-meta">
              {done && <span>{formatSize(record.size)}</span>}
              {record.create_time && <span>{record.create_time}</span>}
              {record.link && (
                <span className="ex-link-text" title={record.link}>
                  {record.link}
                </span>
              )}
            </div>
          </div>
        </div>
      </td>
      <td className="ex-col-actions">
        <div className="ex-actions">
          <AnchorButton size="small" icon="download" text="下载" href={done ? record.url : undefined} download={downloadName(record, kind)} disabled={!done} data-testid="extraction-download" />
          <Button size="small" intent="primary" icon="add-to-folder" text="保存到素材库" onClick={saveToMaterial} loading={save.busy} disabled={!done} data-testid="extraction-save" />
        </div>
      </td>
    </tr>
  );
}
