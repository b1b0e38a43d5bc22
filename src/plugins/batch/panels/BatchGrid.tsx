/** The preview grid: load or paste a table, edit each cell, see each row's check and price, drop rows, submit. */
import { useRef, useState } from 'react';
import { Button, Callout, InputGroup, Tag, TextArea } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { useStore, useValue } from '../../../core';
import type { BatchScreen } from '../batch-state';
import { GRID_FIELDS, TEMPLATE_HEADERS, type GridField, type GridRow } from '../batch-view';
import { BatchList } from './BatchList';

export function BatchGrid({ screen }: { screen: BatchScreen }) {
  const rows = useValue(screen.rows$);
  const checks = useValue(screen.checks$);
  const checking = useValue(screen.checking$);
  const submitting = useValue(screen.submitting$);
  const name = useValue(screen.name$);
  useStore(screen.catalog);
  const file = useRef<HTMLInputElement>(null);
  const [pasted, setPasted] = useState('');
  const bad = rows.filter((r) => checks.get(r.key)?.error).length;
  const total = rows.reduce((sum, r) => sum + (checks.get(r.key)?.credits ?? 0), 0);
  return (
    <>
      <section className="tool-card bat-source">
        <div className="bat-steps">
          <div className="bat-step">
            <b>1. 下载模板</b>
            <span className="bat-note">列：{TEMPLATE_HEADERS.join('、')}</span>
            <div className="bat-actions">
              <Button icon="download" text="Excel 模板" onClick={() => void screen.downloadTemplate('xlsx')} data-testid="batch-template-xlsx" />
              <Button icon="download" text="CSV 模板" onClick={() => void screen.downloadTemplate('csv')} data-testid="batch-template-csv" />
            </div>
          </div>
          <div className="bat-step">
            <b>2. 上传填好的表格</b>
            <span className="bat-note">支持 xlsx、csv，最多 {LIMITS.batch.maxRows} 行</span>
            <Button icon="upload" intent="primary" text="上传表格" onClick={() => file.current?.click()} data-testid="batch-upload" />
            <input ref={file} type="file" accept=".xlsx,.csv" hidden data-testid="batch-file" onChange={(e) => { const f = e.target.files?.[0]; if (f) void screen.load(f); e.target.value = ''; }} />
          </div>
          <div className="bat-step bat-paste">
            <b>或粘贴表格里的单元格</b>
            <TextArea fill rows={2} value={pasted} placeholder="从 Excel / WPS 复制几行，粘贴到这里" onChange={(e) => setPasted(e.target.value)} data-testid="batch-paste-text" />
            <Button text="加入表格" disabled={!pasted.trim()} onClick={() => { screen.paste(pasted); setPasted(''); }} data-testid="batch-paste" />
          </div>
        </div>
      </section>
      {rows.length > 0 && (
        <section className="tool-card" data-testid="batch-grid">
          <header className="bat-card-head">
            <h3>预览（{rows.length} 行）</h3>
            {bad > 0 ? <Tag intent="danger" minimal data-testid="batch-bad-count">{bad} 行有误</Tag> : <Tag intent="success" minimal>{checking ? '校验中…' : '全部可提交'}</Tag>}
            <span className="bat-spacer" />
            <Button icon="add" variant="minimal" text="加一行" onClick={() => screen.add()} />
          </header>
          <div className="bat-table-wrap">
            <table className="bat-table">
              <thead><tr><th>#</th>{TEMPLATE_HEADERS.map((h) => <th key={h}>{h}</th>)}<th>预估积分</th><th /></tr></thead>
              <tbody>{rows.map((r, i) => <Row key={r.key} row={r} index={i + 1} screen={screen} />)}</tbody>
            </table>
          </div>
          <footer className="bat-submit">
            <InputGroup className="bat-name" placeholder="批次名称（可不填）" value={name} onChange={(e) => screen.name$.next(e.target.value)} data-testid="batch-name" />
            <span className="bat-total" data-testid="batch-total" data-credits={total}>合计约 <b>{total}</b> 积分</span>
            <Button intent="primary" icon="send-message" text="提交" loading={submitting} disabled={bad > 0 || checking} onClick={() => void screen.submit()} data-testid="batch-submit" />
          </footer>
        </section>
      )}
      {rows.length === 0 && <Callout icon="info-sign" className="bat-hint">下载模板填好后上传，或直接粘贴表格内容；每行的数字人、声音写名称即可。</Callout>}
      <BatchList screen={screen} />
    </>
  );
}

function Row({ row, index, screen }: { row: GridRow; index: number; screen: BatchScreen }) {
  const check = useValue(screen.checks$).get(row.key);
  return (
    <>
      <tr className={check?.error ? 'bat-row bad' : 'bat-row'} data-testid="batch-row" data-index={index} data-error={check?.error ? '1' : '0'}>
        <td className="bat-num">{index}</td>
        {GRID_FIELDS.map((f) => <Cell key={f} row={row} field={f} bad={check?.field === f} screen={screen} />)}
        <td className="bat-credits" data-testid="batch-row-credits">{check?.credits || '—'}</td>
        <td><Button icon="cross" variant="minimal" aria-label="删除该行" onClick={() => screen.drop(row.key)} data-testid="batch-row-drop" /></td>
      </tr>
      {check?.error && (
        <tr className="bat-error-row"><td /><td colSpan={GRID_FIELDS.length + 2}><div className="bat-error" data-testid="batch-row-error">第{index}行：{check.error}</div></td></tr>
      )}
    </>
  );
}

function Cell({ row, field, bad, screen }: { row: GridRow; field: GridField; bad: boolean; screen: BatchScreen }) {
  const wide = field === 'text';
  return (
    <td className={`bat-cell${wide ? ' wide' : ''}${bad ? ' bad' : ''}`}>
      <input className="bat-input" value={row[field]} aria-label={TEMPLATE_HEADERS[GRID_FIELDS.indexOf(field)]} data-testid={`batch-cell-${field}`} onChange={(e) => screen.edit(row.key, field, e.target.value)} />
    </td>
  );
}
